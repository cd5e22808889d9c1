import { describe, expect, it } from 'vitest';
import { startMessage } from './start-message';

const url = 'http://localhost:3000';

describe('start message', () => {
  it('without the demo: where Runway runs and where to sign in, nothing about demo users', () => {
    const text = startMessage({ url, embedded: false, demo: false });
    expect(text.split('\n')).toEqual(['Runway is running at http://localhost:3000  (database: PostgreSQL server)', 'Sign in at http://localhost:3000/sign-in']);
  });

  it("shows root's generated password once it was generated, with how to change it", () => {
    const text = startMessage({ url, embedded: true, generatedRootPassword: 's3cret-pw', demo: false });
    expect(text).toContain('(database: embedded PGlite)');
    expect(text).toContain('Sign in at http://localhost:3000/sign-in as root with password: s3cret-pw');
    expect(text).toContain('npx runway reset-password --username root');
  });

  it('with the demo: the users who can sign in (admin first, not the blocked one), their password and the main pages', () => {
    const lines = startMessage({ url, embedded: true, demo: true }).split('\n');
    expect(lines).toContain('Demo users, all with the password runway-demo-password:');
    const users = lines[lines.indexOf('Demo users, all with the password runway-demo-password:') + 1].trim().split(', ');
    expect(users[0]).toBe('ada.admin (admin)');
    expect(users).toEqual(expect.arrayContaining(['alice.owner', 'mark.maintainer', 'dana.developer', 'rita.reporter', 'gus.guest']));
    expect(users.join()).not.toContain('bob.blocked');
    const pages = lines.slice(lines.indexOf('Where to look first:') + 1);
    expect(pages.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['Projects', 'http://localhost:3000/dashboard/projects'],
      ['Access tokens', 'http://localhost:3000/-/user_settings/personal_access_tokens'],
      ['Runners', 'http://localhost:3000/admin/runners'],
      ['Demo project', 'http://localhost:3000/acme/web/website'],
    ]);
  });

  it('says where the request log goes when it is a file (--demo and --dev), and how to see it here instead', () => {
    const text = startMessage({ url: 'http://localhost:3000', embedded: true, demo: false, requestLog: '/srv/runway/.data/log/requests.log' });
    expect(text.split('\n').slice(-1)).toEqual(['Requests are logged to /srv/runway/.data/log/requests.log (RUNWAY_REQUEST_LOG=stdout shows them here).']);
    expect(startMessage({ url: 'http://localhost:3000', embedded: true, demo: false, requestLog: null })).not.toContain('Requests are logged');
  });
});
