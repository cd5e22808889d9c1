// GET /api/v4/merge_requests
import { endpoint, routes } from '@/lib/api/handler';
import { listUserMrHandler, listUserMrParams } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listUserMrParams, handle: listUserMrHandler }),
});
