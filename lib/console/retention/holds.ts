// What else keeps a receipt's body past its retention (lib/console/retention/purge-console.ts), as a
// SQL condition over the receipt `r`: a case with a live share link. A link names its case by a
// term (a message id, a grant or tracking id, an e-mail): the receipt of that message, or one whose
// body holds the term, is held (the hold still ends at RETENTION_HOLD_MAX: the caller applies it
// around this condition). Live links are few, and the purge asks this only of rows it would purge.
export const SHARE_LINK_HOLD_SQL = `exists (select 1 from console.shares s
  where s.revoked_at is null and s.expires_at > now()
    and (s.query = r.message_id
      or case when r.body_utf8 and r.body is not null then strpos(lower(convert_from(r.body, 'UTF8')), lower(s.query)) > 0 else false end))`;
