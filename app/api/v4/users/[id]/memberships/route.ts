// GET /api/v4/users/:user_id/memberships (admins)
import { endpoint, routes } from '@/lib/api/handler';
import { listUserMemberships } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: listUserMemberships }),
});
