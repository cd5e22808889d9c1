// Parameter declarations of the personal access token routes, in GitLab's order.
import { paginationShape } from '../api/pagination';
import { param } from '../api/params';
import { ALL_SCOPES } from '../auth/scopes';

/** POST /users/:user_id/personal_access_tokens (admin). */
export const createTokenParams = {
  user_id: param.integer().required(),
  name: param.string().required(),
  description: param.string(),
  // Each element must be one of the values (Grape checks arrays element-wise).
  scopes: param
    .array()
    .required()
    .values(ALL_SCOPES as never as string[][]),
  expires_at: param.date(),
};

/** POST /user/personal_access_tokens: `scopes` values depend on the caller (see policy.selfServiceScopes). */
export const createOwnTokenParams = (allowed: readonly string[]) => ({
  name: param.string().required(),
  description: param.string(),
  scopes: param
    .array()
    .required()
    .values(allowed as never as string[][]),
  expires_at: param.date(),
});

export const listTokensParams = {
  user_id: param.integer(),
  revoked: param.boolean(),
  state: param.string().values(['inactive', 'active']),
  created_before: param.dateTime(),
  created_after: param.dateTime(),
  last_used_before: param.dateTime(),
  last_used_after: param.dateTime(),
  expires_before: param.date(),
  expires_after: param.date(),
  search: param.string(),
  sort: param.string().values(['created_asc', 'created_desc', 'expires_asc', 'expires_desc', 'last_used_asc', 'last_used_desc', 'name_asc', 'name_desc']),
  ...paginationShape,
};

export const tokenIdParams = { id: param.integer().required() };
