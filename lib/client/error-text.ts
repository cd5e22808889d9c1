// Errors in plain language: the one place the dashboard turns a failed request into a sentence. GitLab's
// bodies read "403 Forbidden - Runner is locked"; the status prefix means nothing to the person who clicked,
// so it goes, and the API's own reason stays when it is already plain (the developers' guide: a refusal shows
// the API's message where the user acted). Bare statuses and terse policy answers get GitLab's UI wording.
import { ApiError } from './api';

// GitLab's "<code> <Reason phrase> - <detail>" and bare "<code> <Reason phrase>" bodies.
const STATUS_PREFIX = /^\d{3}(?: [A-Za-z' ]+?)?(?: - |$)/;

/** Terse API reasons and what they mean to the reader. Keys are compared without case or final period. */
const PLAIN: Record<string, string> = {
  'no access granted': 'You do not have permission to do this.',
  forbidden: 'You do not have permission to do this.',
  'runner is locked': 'This runner is locked to its current projects: only an administrator can enable or disable it for other projects.',
  'runner is a group runner': 'Group runners are available to every project in their group and cannot be enabled for a single project.',
  unauthorized: 'Your session has ended. Sign in again to continue.',
  insufficient_scope: 'Your session does not allow this action. Sign in again to continue.',
};

function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  // A parameter's name ("access_level does not...") keeps its spelling; prose starts with a capital.
  const first = /^\S*_/.test(t) ? t : t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** The reason for a failed request, in words a dashboard user understands. */
export function plainReason(error: unknown): string {
  if (!(error instanceof ApiError)) {
    const message = error instanceof Error ? error.message : String(error ?? '');
    return sentence(message) || 'Something went wrong. Please try again.';
  }
  const { status } = error;
  if (status === 0) return error.message; // already a sentence: the network failed
  if (status === 401) return PLAIN.unauthorized;
  if (status === 429) return 'Too many requests. Wait a moment, then try again.';
  if (status >= 500) return 'Something went wrong on the server. Please try again.';
  const detail = error.message.replace(STATUS_PREFIX, '').trim();
  const known = PLAIN[detail.toLowerCase().replace(/\.$/, '')];
  if (known) return known;
  if (status === 404) {
    // "404 Project Not Found", "404 Runner Not Found", "404 Not found"
    const what = /^404 (.+?) Not Found$/i.exec(error.message)?.[1];
    return `${what ? `The ${what.toLowerCase()}` : 'It'} could not be found. It may have been deleted, or you may not have access to it.`;
  }
  if (status === 403 && !detail) return PLAIN.forbidden;
  if (status === 409 && !detail) return 'Someone else changed this meanwhile. Reload the page and try again.';
  if (!detail || /^Request failed with status/.test(detail)) return 'Something went wrong. Please try again.';
  return sentence(detail);
}

/**
 * The sentence to show for a failed action: GitLab's failure wording for what the user tried (for example
 * "Failed to remove context commits.") followed by the plain reason. Without `failure`, the reason alone.
 */
export function errorText(error: unknown, failure?: string): string {
  const reason = plainReason(error);
  return failure ? `${sentence(failure)} ${reason}` : reason;
}
