// GET /api/v4/version
import { endpoint, routes } from '@/lib/api/handler';
import { versionInfo } from '@/lib/meta/version';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], handle: () => versionInfo() }),
});
