// What else keeps a receipt's body past its retention (lib/console/retention/purge-console.ts), as a
// SQL condition over the receipt `r`.
//
// TODO(share-links): a receipt of a case with a live share link is held too. Share links are being
// built beside this; at merge, replace `false` with a condition such as
//   exists (select 1 from console.share_links s
//            where s.message_id = r.message_id and s.revoked_at is null and s.expires_at > now())
// (the hold still ends at RETENTION_HOLD_MAX: the caller applies it around this condition).
export const SHARE_LINK_HOLD_SQL = 'false';

// TODO(share-links): a donor erasure revokes the live share links of the donor's cases. At merge,
// replace this with the share links' revocation (by message id); it answers how many it revoked
// (with dryRun, how many it would).
export const SHARE_LINK_ERASURE_HOOK = async (_messageIds: string[], _dryRun: boolean): Promise<number> => 0;
