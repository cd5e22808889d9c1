// GET, POST /api/v4/users
import { endpoint, routes } from '@/lib/api/handler';
import { createUser, listUsers } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  // Anonymous callers may look a user up by username (GitLab's authenticate_non_get!).
  GET: endpoint({ auth: 'optional', scopes: [{ scope: 'read_user', readOnly: true }], handle: listUsers }),
  POST: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], handle: createUser }),
});
