// GET /api/v4/version: GitLab's deprecated alias of /metadata, answered with the same body.
import { routes } from '@/lib/api/handler';
import { showMetadata } from '@/lib/meta/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showMetadata });
