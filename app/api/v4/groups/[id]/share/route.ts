// POST /api/v4/groups/:id/share (share the group with another group)
import { endpoint, routes } from '@/lib/api/handler';
import { shareGroupHandler } from '@/lib/groups/share-handlers';
import { shareGroupParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ params: shareGroupParams, handle: shareGroupHandler }),
});
