// Which import URLs are accepted, checked twice: when the project is saved (a 400 as GitLab's model
// validation gives it) and again right before git fetches, since a host's DNS answer may change in
// between. Remote transports (http, https, git, ssh) may not lead to this host or the local network
// unless an admin allows it (allow_local_requests_from_web_hooks_and_services); local paths and file://
// URLs read the server's own disk, so only admins may use them, and only when the instance allows it
// (RUNWAY_ALLOW_LOCAL_IMPORT=true).
import path from 'node:path';
import { readEnv } from '../config/env';
import { localRequestsAllowed } from '../settings/application';
import type { GitOptions } from './git';
import { gitTransport } from './git-transport';
import { looksRemote, parseRemoteUrl, RemoteUrlError } from './remote-url';
import { BlockedUrlError, checkRemote, type Resolver } from './url-blocker';

export type ImportUrlKind = 'remote' | 'local' | 'invalid';

export const SCHEMES_MESSAGE = 'Only allowed schemes are http, https, git, ssh';
export const LOCAL_FILES_MESSAGE = 'Requests to the local file system are not allowed';

export function classifyImportUrl(url: string): ImportUrlKind {
  const u = url.trim();
  if (!u || u.startsWith('-') || /[\0\n\r]/.test(u)) return 'invalid';
  if (looksRemote(u)) return 'remote';
  if (/^file:\/\/\//i.test(u) || path.isAbsolute(u)) return 'local';
  return 'invalid';
}

export function localImportAllowed(): boolean {
  return readEnv().RUNWAY_ALLOW_LOCAL_IMPORT;
}

/** Where git fetches from and how: the URL and the options that keep it on the checked address. */
export interface ImportSource {
  url: string;
  git: Pick<GitOptions, 'allowProtocols' | 'config' | 'sshOptions'>;
}

/**
 * Right before a fetch: throws BlockedUrlError (GitLab's message) when the URL may not be used; otherwise
 * resolves the host once and returns git's URL and options pinned to the address that was checked.
 */
export async function importSource(url: string, opts: { allowLocalPaths: boolean; resolve?: Resolver }): Promise<ImportSource> {
  const kind = classifyImportUrl(url);
  if (kind === 'invalid') throw new BlockedUrlError(SCHEMES_MESSAGE);
  if (kind === 'local') {
    if (!opts.allowLocalPaths) throw new BlockedUrlError(LOCAL_FILES_MESSAGE);
    return { url, git: { allowProtocols: 'file' } };
  }
  const remote = parseOrBlock(url);
  const address = await checkRemote(remote, { allowLocalNetwork: await localRequestsAllowed(), mode: 'fetch', resolve: opts.resolve });
  const transport = gitTransport(remote, address!);
  return { url: transport.url, git: { allowProtocols: transport.protocol, config: transport.config, sshOptions: transport.sshOptions } };
}

/** When the project is saved: GitLab's `is blocked: ...` for import_url, or null when the URL is accepted. */
export async function importUrlProblem(url: string, actor: { admin: boolean }): Promise<string | null> {
  try {
    const kind = classifyImportUrl(url);
    if (kind === 'invalid') throw new BlockedUrlError(SCHEMES_MESSAGE);
    if (kind === 'local') {
      if (!(actor.admin && localImportAllowed())) throw new BlockedUrlError(LOCAL_FILES_MESSAGE);
      return null;
    }
    await checkRemote(parseOrBlock(url), { allowLocalNetwork: await localRequestsAllowed(), mode: 'request' });
    return null;
  } catch (err) {
    if (err instanceof BlockedUrlError) return `is blocked: ${err.message}`;
    throw err;
  }
}

function parseOrBlock(url: string) {
  try {
    return parseRemoteUrl(url.trim());
  } catch (err) {
    if (err instanceof RemoteUrlError) throw new BlockedUrlError(err.message);
    throw err;
  }
}
