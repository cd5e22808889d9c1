// Row ids are PostgreSQL `integer`s. A larger number is a valid request parameter that simply matches
// nothing, so lookups answer "not found" instead of letting PostgreSQL reject the value.
export const MAX_INT4 = 2_147_483_647;
export const MAX_ROW_ID = MAX_INT4;

export function isRowId(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= MAX_ROW_ID;
}
