// GitLab's health endpoints: /-/health (plain "GitLab OK"), /-/liveness and /-/readiness (JSON).
import { db } from '../db/client';

export async function databaseReady(): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

export function healthResponse(): Response {
  return new Response('GitLab OK', { status: 200, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
}

export function livenessResponse(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}

export async function readinessResponse(): Promise<Response> {
  const ok = await databaseReady();
  const check = [{ status: ok ? 'ok' : 'failed', ...(ok ? {} : { message: 'database is not reachable' }) }];
  return Response.json(
    { status: ok ? 'ok' : 'failed', master_check: [{ status: ok ? 'ok' : 'failed' }], db_check: check },
    { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
