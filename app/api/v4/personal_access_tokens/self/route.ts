// GET, DELETE /api/v4/personal_access_tokens/self: any scope; only for personal access tokens
import { endpoint, routes } from '@/lib/api/handler';
import { deleteSelfToken, showSelfToken } from '@/lib/tokens/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ anyScope: true, handle: showSelfToken }),
  DELETE: endpoint({ anyScope: true, handle: deleteSelfToken }),
});
