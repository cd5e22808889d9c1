// GET /-/liveness
import { livenessResponse } from '@/lib/health/checks';

export const dynamic = 'force-dynamic';
export const GET = async () => livenessResponse();
