// Parameter declarations of the session routes (GET /user/sessions, DELETE /user/sessions/:id).
import { paginationShape } from '../api/pagination';
import { param } from '../api/params';

export const listSessionsParams = {
  ...paginationShape,
};

export const sessionIdParams = { id: param.string().required() };

/** The API names a session by its digest (64 hex digits); anything else names no session. */
export const isSessionDigest = (value: string) => /^[0-9a-f]{64}$/i.test(value);

// What a session cookie's `sid` looks like is authentication's to know (lib/auth).
export { isSessionId } from '../auth/lookups';
