/** The header search box's id: "/" focuses it (slash-to-search.tsx); a plain module, so server components read the string. */
export const SEARCH_INPUT_ID = 'console-search';
