// Conditional requests: the If-Unmodified-Since check GitLab's deletes make (runners, users).
import { apiError } from './errors';

/** GitLab's destroy_conditionally!: 412 when If-Unmodified-Since parses and the row changed after it. */
export function checkUnmodifiedSince(req: Request, updatedAt: Date): void {
  const header = req.headers.get('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return;
  if (updatedAt.getTime() > since) throw apiError(412, '412 Precondition Failed');
}
