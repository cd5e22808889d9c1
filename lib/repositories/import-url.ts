// Which import URLs are accepted. Remote transports are open to project maintainers; local paths and
// file:// URLs read the server's own disk, so only admins may use them, and only when the instance
// allows it (RUNWAY_ALLOW_LOCAL_IMPORT=true).
import path from 'node:path';
import { readEnv } from '../config/env';
import { validationError } from '../api/errors';

export type ImportUrlKind = 'remote' | 'local' | 'invalid';

export function classifyImportUrl(url: string): ImportUrlKind {
  const u = url.trim();
  if (!u || u.startsWith('-') || /[\0\n\r]/.test(u)) return 'invalid';
  if (/^(https?|git|ssh):\/\/[^/\s]+/i.test(u)) return 'remote';
  if (/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/]/.test(u)) return 'remote'; // scp-like ssh
  if (/^file:\/\/\//i.test(u) || path.isAbsolute(u)) return 'local';
  return 'invalid';
}

export function localImportAllowed(): boolean {
  return readEnv().RUNWAY_ALLOW_LOCAL_IMPORT;
}

/** Throws GitLab-style 400 `{"message":{"import_url":[...]}}` when this actor may not import from url. */
export function assertImportUrlAllowed(url: string, actor: { admin: boolean }): void {
  const kind = classifyImportUrl(url);
  if (kind === 'invalid') throw validationError({ import_url: ['is blocked: Only allowed schemes are http, https, git, ssh'] });
  if (kind === 'local' && !(actor.admin && localImportAllowed())) {
    throw validationError({ import_url: ['is blocked: Requests to the local file system are not allowed'] });
  }
}
