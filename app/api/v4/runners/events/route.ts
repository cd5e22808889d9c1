// GET /api/v4/runners/events (Runway extension): live runner changes as Server-Sent Events.
import { routes } from '@/lib/api/handler';
import { runnerEventsEndpoint } from '@/lib/runners/events-handlers';

// A stream per request, never cached or prerendered.
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: runnerEventsEndpoint });
