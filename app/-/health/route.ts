// GET /-/health
import { healthResponse } from '@/lib/health/checks';

export const dynamic = 'force-dynamic';
export const GET = async () => healthResponse();
