// /api/v4/runners/cleanup (Runway extension, admins): GET previews the stale runners a rule removes, POST runs it.
import { routes } from '@/lib/api/handler';
import { previewCleanupEndpoint, runCleanupEndpoint } from '@/lib/runner-cleanup/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: previewCleanupEndpoint, POST: runCleanupEndpoint });
