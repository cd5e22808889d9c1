// What `runway start` prints once it serves: where to sign in, and with the demo, who can sign in and
// which pages to open first. Plain lines, so a terminal and a log file read the same.
import { DEMO_PASSWORD, DEMO_USERS, demoProjectPaths } from '../seed/platform';
import { NAVIGATION } from '../../components/dashboard/navigation';

const FIRST_PAGES = ['Projects', 'Runners', 'Access tokens'];

export interface StartFacts {
  url: string;
  embedded: boolean;
  /** Root's password when it was generated at this start (shown once). */
  generatedRootPassword?: string;
  demo: boolean;
  /** The file the request log is written to, when it is one (RUNWAY_REQUEST_LOG). */
  requestLog?: string | null;
}

export function startMessage({ url, embedded, generatedRootPassword, demo, requestLog }: StartFacts): string {
  const lines = [`Runway is running at ${url}  (database: ${embedded ? 'embedded PGlite' : 'PostgreSQL server'})`];
  if (generatedRootPassword) {
    lines.push(
      `Sign in at ${url}/sign-in as root with password: ${generatedRootPassword}`,
      '  (shown once; change it with: npx runway reset-password --username root)',
    );
  } else {
    lines.push(`Sign in at ${url}/sign-in`);
  }
  if (demo) {
    // Admins first; a blocked user cannot sign in, so listing it would only mislead.
    const users = DEMO_USERS.filter((u) => !('blocked' in u && u.blocked))
      .map((u) => ('admin' in u && u.admin ? `${u.username} (admin)` : u.username))
      .sort((a, b) => Number(b.endsWith('(admin)')) - Number(a.endsWith('(admin)')));
    // The pages a first visit wants, from the menu itself so the links follow it; then a demo project.
    const pages: [string, string][] = [
      ...NAVIGATION.filter((item) => FIRST_PAGES.includes(item.label)).map((item): [string, string] => [item.label, `${url}${item.href}`]),
      ['Demo project', `${url}/${demoProjectPaths.website}`],
    ];
    const width = Math.max(...pages.map(([label]) => label.length));
    lines.push(
      '',
      `Demo users, all with the password ${DEMO_PASSWORD}:`,
      `  ${users.join(', ')}`,
      'Where to look first:',
      ...pages.map(([label, href]) => `  ${label.padEnd(width)}  ${href}`),
    );
  }
  if (requestLog) lines.push('', `Requests are logged to ${requestLog} (RUNWAY_REQUEST_LOG=stdout shows them here).`);
  return lines.join('\n');
}
