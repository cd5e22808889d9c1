// GET /api/v4/metadata
import { routes } from '@/lib/api/handler';
import { showMetadata } from '@/lib/meta/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: showMetadata });
