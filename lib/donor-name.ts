// A donor's full name as both halves spell it in a message tag (`name:grace hopper`): the service
// tags a grant's messages with it (lib/service/grants/create-grant.ts), the console's search asks
// for it (lib/console/investigation/search-query.ts). Case, runs of spaces and Unicode forms do not matter.

export const DONOR_NAME_TAG_PREFIX = 'name:';

export function normalizeDonorName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The tag of a donor's full name, or null when there is none. */
export function donorNameTag(fullName: string): string | null {
  const name = normalizeDonorName(fullName);
  return name ? `${DONOR_NAME_TAG_PREFIX}${name}` : null;
}

/** The prefix of a tag that names a donor (`donor:` + e-mail, `name:` + full name), or null: what exports and viewers mask. */
export function donorTagPrefix(tag: string): string | null {
  return tag.startsWith('donor:') ? 'donor:' : tag.startsWith(DONOR_NAME_TAG_PREFIX) ? DONOR_NAME_TAG_PREFIX : null;
}
