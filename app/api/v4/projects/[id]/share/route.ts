// POST /api/v4/projects/:id/share (share the project with a group)
import { endpoint, routes } from '@/lib/api/handler';
import { shareProjectHandler } from '@/lib/groups/share-handlers';
import { shareProjectParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ params: shareProjectParams, handle: shareProjectHandler }),
});
