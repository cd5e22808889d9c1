// Parameter declarations of the session routes (GET /user/sessions, DELETE /user/sessions/:id).
import { paginationShape } from '../api/pagination';
import { param } from '../api/params';

export const listSessionsParams = {
  ...paginationShape,
};

export const sessionIdParams = { id: param.string().required() };

/** Session ids are UUIDs; anything else names no session. */
export const isSessionId = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
