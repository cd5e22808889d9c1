// GET, PUT, DELETE /api/v4/users/:id
import { endpoint, routes } from '@/lib/api/handler';
import { deleteUser, numericIdRoute, showUser, updateUser } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', scopes: [{ scope: 'read_user', readOnly: true }], before: numericIdRoute, handle: showUser }),
  PUT: endpoint({ before: numericIdRoute, handle: updateUser }),
  DELETE: endpoint({ before: numericIdRoute, handle: deleteUser }),
});
