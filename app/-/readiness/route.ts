// GET /-/readiness: ready when the database answers.
import { readinessResponse } from '@/lib/health/checks';

export const dynamic = 'force-dynamic';
export const GET = () => readinessResponse();
