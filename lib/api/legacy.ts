// GitLab's answer to the retired API v3, for every method.
import { json } from './response';

const gone = async () => json({ error: 'API V3 is no longer supported. Use API V4 instead.' }, 410);

export const apiV3Gone = { GET: gone, HEAD: gone, POST: gone, PUT: gone, PATCH: gone, DELETE: gone, OPTIONS: gone };
