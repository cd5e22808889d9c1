// Row ids are PostgreSQL `integer`s. A larger number is a valid request parameter that simply matches
// nothing, so lookups answer "not found" instead of letting PostgreSQL reject the value.
export const MAX_INT4 = 2_147_483_647;
export const MIN_INT4 = -2_147_483_648;
export const MAX_ROW_ID = MAX_INT4;
/** Below every serial id and iid (they start at 1): a lookup of it finds nothing, as GitLab's does for an id past its column. */
export const NO_ROW_ID = 0;

export function isRowId(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= MAX_ROW_ID;
}

/** `n` brought into the integer column's range, for comparisons (a keyset cursor past the last row still means "after every row"). */
export function clampToInt4(n: number): number {
  return Math.min(MAX_INT4, Math.max(MIN_INT4, n));
}
