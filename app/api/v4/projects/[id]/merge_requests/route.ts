// GET, POST /api/v4/projects/:id/merge_requests
import { endpoint, routes } from '@/lib/api/handler';
import { createMrHandler, createMrParams, listMrHandler, listMrParams } from '@/lib/merge-requests/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listMrParams, handle: listMrHandler }),
  POST: endpoint({ params: createMrParams, handle: createMrHandler }),
});
