// [AUTH] Signing in and out of the dashboard, and the session's CSRF protection of API writes.
import { expect, test } from '@playwright/test';
import config from '../playwright.config';
import { csrfToken, ROOT, signIn, uniq } from './support/session';

const TOKENS_PAGE = '/-/user_settings/personal_access_tokens';

// Should a page try to leave the site (the callbackUrl specs), Chromium looks no name up (the resolver is
// not on loopback) and the spec's route answers the request: nothing ever leaves loopback.
const launch = config.use?.launchOptions ?? {};
test.use({ launchOptions: { ...launch, args: [...(launch.args ?? []), '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] } });

test.describe('[AUTH] sign-in', () => {
  test('[AUTH] a wrong password shows an error and does not sign in', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username or primary email').fill(ROOT.username);
    await page.getByLabel('Password').fill('not-the-password');
    const callback = page.waitForResponse((r) => r.url().includes('/api/auth/callback/credentials'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await callback;
    await expect(page.locator('form').getByRole('alert')).toHaveText('Invalid login or password.');
    await expect(page).toHaveURL(/\/sign-in/);
    // Still signed out: the dashboard sends us back.
    await page.goto(TOKENS_PAGE);
    await expect(page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
  });

  test('[AUTH] a malformed cookie of another site on this host does not break sign-in or the dashboard', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: '_ga', value: '%E0%A4%A', url: baseURL! }]);
    await signIn(page);
    // A write with the session (and the foreign cookie) from the browser, then the page lists it.
    const description = uniq('cookie-runner');
    const created = await page.request.post('/api/v4/user/runners', {
      headers: { 'X-CSRF-Token': await csrfToken(page) },
      data: { runner_type: 'instance_type', description },
    });
    expect(created.status()).toBe(201);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).click();
    await expect(page.getByRole('heading', { name: 'Runners' })).toBeVisible();
    await expect(page.getByRole('table').getByText(description)).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === '_ga')).toBe(true);
  });

  test('[AUTH] sign in, see the dashboard, sign out', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    await signIn(page);
    // GitLab lands signed-in users on their projects.
    await expect(page).toHaveURL(/\/dashboard\/projects$/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('current-user')).toContainText('Administrator');

    // The session cookie authenticates API reads.
    const me = await page.request.get('/api/v4/user');
    expect(me.status()).toBe(200);
    expect((await me.json()).username).toBe('root');

    // The server's HTML has "Sign out" disabled (a click before hydration would be lost); the page enables it.
    const html = await (await page.request.get('/dashboard/projects')).text();
    // Disabled by aria-disabled, which keeps it focusable (a disabled button drops a keyboard user's focus).
    expect(html).toMatch(/<button[^>]*\baria-disabled="true"[^>]*>Sign out<\/button>/);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeEnabled();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    await page.goto(TOKENS_PAGE);
    await expect(page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    expect((await page.request.get('/api/v4/user')).status()).toBe(401);
  });

  test('[AUTH] an empty field is named before any request is made', async ({ page }) => {
    await page.goto('/sign-in');
    let requests = 0;
    page.on('request', (r) => r.url().includes('/api/auth/callback/') && requests++);
    const login = page.getByLabel('Username or primary email');
    const password = page.getByLabel('Password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#username-error')).toHaveText('Enter your username or primary email.');
    await expect(page.locator('#password-error')).toHaveText('Enter your password.');
    await expect(login).toHaveAttribute('aria-invalid', 'true');
    await expect(login).toHaveAttribute('aria-describedby', 'username-error');
    await expect(login).toHaveAccessibleDescription('Enter your username or primary email.');
    await expect(password).toHaveAccessibleDescription('Enter your password.');
    await expect(login).toBeFocused();
    await expect(page.getByText('Invalid login or password.')).toHaveCount(0);

    // Only the one still missing is named; a space is not a login.
    await login.fill('   ');
    await password.fill('some-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#username-error')).toHaveText('Enter your username or primary email.');
    await expect(page.locator('#password-error')).toHaveCount(0);
    await expect(password).toHaveAttribute('aria-invalid', 'false');
    await login.fill(ROOT.username);
    await password.fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#password-error')).toHaveText('Enter your password.');
    await expect(password).toBeFocused();
    expect(requests).toBe(0);
  });

  test('[AUTH] a deep link opened while signed out is where sign-in returns', async ({ page }) => {
    const deep = '/admin/runners?type=instance_type&status=online';
    await page.goto(deep);
    await expect(page).toHaveURL(`/sign-in?callbackUrl=${encodeURIComponent(deep)}`);
    await signIn(page, ROOT.username, ROOT.password, 'root', false);
    // Back on the list, whose address takes GitLab's parameter names.
    await expect(page).toHaveURL('/admin/runners?status%5B%5D=ONLINE&runner_type%5B%5D=INSTANCE_TYPE');
    await expect(page.getByRole('tab', { name: 'Instance' })).toHaveAttribute('aria-selected', 'true');

    // A runner's page too (here one that does not exist: the page says so after sign-in). The open page is
    // left first: its own next request, signed out, would send it to sign-in for its URL, racing this goto.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto('/admin/runners/987654');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fadmin%2Frunners%2F987654$/);
    await signIn(page, ROOT.username, ROOT.password, 'root', false);
    await expect(page).toHaveURL('/admin/runners/987654');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

    // Pages at the root of the site (the projects list, a group) come back the same way.
    for (const path of ['/dashboard/projects?search=web', '/groups/acme-missing']) {
      await page.goto('about:blank');
      await page.context().clearCookies();
      await page.goto(path);
      await expect(page).toHaveURL(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
      await signIn(page, ROOT.username, ROOT.password, 'root', false);
      await expect(page).toHaveURL(path);
    }
  });

  test('[AUTH] pages ship an icon: no 404 for favicon.ico', async ({ page, request }) => {
    const missing: string[] = [];
    page.on('response', (r) => r.status() === 404 && missing.push(r.url()));
    await page.goto('/sign-in');
    await expect(page.locator('link[rel="icon"][href^="/icon.svg"]')).toHaveCount(1);
    const ico = await request.get('/favicon.ico');
    expect(ico.status()).toBe(200);
    expect(ico.headers()['content-type']).toBe('image/x-icon');
    expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
    const svg = await request.get('/icon.svg');
    expect(svg.status()).toBe(200);
    expect(await svg.text()).toContain('<svg');
    expect(missing).toEqual([]);
  });

  test('[AUTH] the primary email works as the login too, in any case', async ({ page }) => {
    // Root's email, set by the first start (lib/server/bootstrap.ts).
    await signIn(page, 'ADMIN@example.com', ROOT.password, 'root');
  });
});

test.describe('[AUTH] callbackUrl', () => {
  test('[AUTH] a callbackUrl that leaves the site is ignored', async ({ page, baseURL }) => {
    // Ten sign-ins in a row: more than the default minute on a loaded machine.
    test.setTimeout(240_000);
    const site = new URL(baseURL!).origin;
    await page.context().route(
      (url) => url.origin !== site,
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Left the site</title>' }),
    );
    const hostile = [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      // Dot segments that normalise into `//evil.example`, and %-encoded slashes (issue 20).
      '/.//evil.example',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/%2F/evil.example',
      '/%5Cevil.example',
    ];
    for (const callbackUrl of hostile) {
      await page.context().clearCookies();
      await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
      await signIn(page, ROOT.username, ROOT.password, 'root', false);
      await expect(page, callbackUrl).toHaveURL(new RegExp(`^${baseURL}/`));
      await expect(page.getByTestId('current-user')).toContainText('@root');
    }
  });
});

test.describe('[AUTH] CSRF', () => {
  test('[AUTH] an API write with the session cookie needs the session CSRF token', async ({ page }) => {
    await signIn(page);
    const data = { name: uniq('csrf'), scopes: ['read_api'] };
    const path = '/api/v4/user/personal_access_tokens';

    const missing = await page.request.post(path, { data });
    expect(missing.status()).toBe(403);
    expect(await missing.json()).toEqual({ message: '403 Forbidden - Invalid CSRF token' });

    const wrong = await page.request.post(path, { data, headers: { 'X-CSRF-Token': 'not-the-token' } });
    expect(wrong.status()).toBe(403);

    const right = await page.request.post(path, { data, headers: { 'X-CSRF-Token': await csrfToken(page) } });
    expect(right.status()).toBe(201);
    expect((await right.json()).name).toBe(data.name);
  });
});

test.describe('[AUTH] other users', () => {
  test('[AUTH] a user signs in (times recorded) until an admin blocks them', async ({ page, browser }) => {
    await signIn(page);
    const csrf = { 'X-CSRF-Token': await csrfToken(page) };
    const username = uniq('e2e-user');
    const password = 'e2e-user-password-1';
    const made = await page.request.post('/api/v4/users', {
      data: { username, name: 'E2E User', email: `${username}@example.com`, password },
      headers: csrf,
    });
    expect(made.status()).toBe(201);
    const { id } = await made.json();

    const userContext = await browser.newContext();
    const userPage = await userContext.newPage();
    await signIn(userPage, username, password);
    // No admin badge.
    await expect(userPage.getByTestId('current-user')).toContainText('E2E User');
    await expect(userPage.getByText('Admin', { exact: true })).toHaveCount(0);
    // A new user lands on an empty projects list and has no tokens yet: the lists say so.
    await expect(userPage.getByText('No projects yet')).toBeVisible();
    await userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access tokens' }).click();
    await expect(userPage.getByText('No personal access tokens')).toBeVisible();
    const seen = await (await page.request.get(`/api/v4/users/${id}`)).json();
    expect(seen.current_sign_in_at).not.toBeNull();
    expect(seen.last_sign_in_at).not.toBeNull();

    expect((await page.request.post(`/api/v4/users/${id}/block`, { headers: csrf })).status()).toBe(201);
    // The blocked user's session no longer opens the dashboard...
    await userPage.reload();
    await expect(userPage).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    // ...and the right password now gets the blocked message, not a session.
    await userPage.getByLabel('Username or primary email').fill(username);
    await userPage.getByLabel('Password').fill(password);
    await userPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(userPage.locator('form').getByRole('alert')).toHaveText('Your account has been blocked. Contact your administrator.');
    // A wrong password still says only that.
    await userPage.getByLabel('Password').fill('wrong-password-123');
    await userPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(userPage.locator('form').getByRole('alert')).toHaveText('Invalid login or password.');
    await userContext.close();
  });

  test('[AUTH] ten wrong passwords from one address lock the account there: the form says so, even for the right password', async ({ page, browser }) => {
    await signIn(page);
    const username = uniq('e2e-locked');
    const password = 'e2e-locked-password-1';
    const made = await page.request.post('/api/v4/users', {
      data: { username, name: 'E2E Locked', email: `${username}@example.com`, password },
      headers: { 'X-CSRF-Token': await csrfToken(page) },
    });
    expect(made.status()).toBe(201);

    const userContext = await browser.newContext();
    const userPage = await userContext.newPage();
    await userPage.goto('/sign-in');
    const alert = userPage.locator('form').getByRole('alert');
    const attempt = async (pass: string) => {
      await userPage.getByLabel('Username or primary email').fill(username);
      await userPage.getByLabel('Password').fill(pass);
      const callback = userPage.waitForResponse((r) => r.url().includes('/api/auth/callback/credentials'));
      await userPage.getByRole('button', { name: 'Sign in' }).click();
      await callback;
    };
    for (let i = 1; i <= 9; i++) {
      await attempt(`wrong-password-${i}`);
      await expect(alert).toHaveText('Invalid login or password.');
    }
    await attempt('wrong-password-10');
    await expect(alert).toHaveText('Your account is locked.');
    await attempt(password);
    await expect(alert).toHaveText('Your account is locked.');
    await expect(userPage).toHaveURL(/\/sign-in/);
    await userContext.close();
  });
});
