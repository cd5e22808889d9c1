// [SESSIONS] The Active sessions page: a user signed in from two browsers revokes one from the other, and
// signing out makes the old cookie useless. Each test has its own user, so parallel tests never share sessions.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { csrfToken, signIn, uniq } from './support/session';

const SESSIONS_PAGE = '/-/user_settings/active_sessions';
const PASSWORD = 'e2e-sessions-password-1';

/** A new user made by root through the API. */
async function newUser(page: Page): Promise<string> {
  await signIn(page);
  const username = uniq('e2e-sessions');
  const made = await page.request.post('/api/v4/users', {
    data: { username, name: 'Sessions User', email: `${username}@example.com`, password: PASSWORD },
    headers: { 'X-CSRF-Token': await csrfToken(page) },
  });
  expect(made.status()).toBe(201);
  return username;
}

/** A browser context of its own, signed in as `username`. */
async function signedInBrowser(browser: Browser, username: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, username, PASSWORD);
  return { context, page };
}

test.describe('[SESSIONS] active sessions', () => {
  test('[SESSIONS] revoke a session from another browser: it is signed out on its next API call', async ({ page, browser }) => {
    const username = await newUser(page);
    const first = await signedInBrowser(browser, username);
    const second = await signedInBrowser(browser, username);

    await second.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Active sessions' }).click();
    await expect(second.page).toHaveURL(new RegExp(`${SESSIONS_PAGE}$`));
    await expect(second.page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
    const items = second.page.getByTestId('active-session');
    await expect(items).toHaveCount(2);
    // The current session is marked and has no Revoke button; the other one has.
    const current = items.filter({ hasText: 'This is your current session' });
    await expect(current).toHaveCount(1);
    await expect(current.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
    const other = items.filter({ hasNotText: 'This is your current session' });
    await expect(other).toContainText('Last accessed on');
    await expect(other).toContainText('127.0.0.1');

    // The first browser still works before the revoke, on a page whose filter tabs call the API.
    expect((await first.page.request.get('/api/v4/user')).status()).toBe(200);
    await first.page.goto('/-/user_settings/personal_access_tokens');
    await expect(first.page.getByRole('tab', { name: 'Inactive' })).toBeVisible();

    await other.getByRole('button', { name: /^Revoke/ }).click();
    const dialog = second.page.getByRole('dialog', { name: 'Revoke this session?' });
    await expect(dialog).toContainText('signed out');
    const revoked = second.page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/v4/user/sessions/'));
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    expect((await revoked).status()).toBe(204);
    await expect(dialog).toBeHidden();
    await expect(items).toHaveCount(1);
    await expect(items).toContainText('This is your current session');

    // The revoked browser's next API call (switching the token list's filter) answers 401: back to sign-in.
    await first.page.getByRole('tab', { name: 'Inactive' }).click();
    await expect(first.page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    expect((await first.page.request.get('/api/v4/user')).status()).toBe(401);
    // The revoking browser is still signed in.
    expect((await second.page.request.get('/api/v4/user')).status()).toBe(200);
    await first.context.close();
    await second.context.close();
  });

  test('[SESSIONS] signing out makes the old cookie useless', async ({ page, browser }) => {
    const username = await newUser(page);
    const signedIn = await signedInBrowser(browser, username);
    const cookies = await signedIn.context.cookies();
    expect(cookies.some((c) => c.name === 'next-auth.session-token')).toBe(true);

    await signedIn.page.getByRole('button', { name: 'Sign out' }).click();
    await expect(signedIn.page).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);

    // A copy of the cookie, taken before signing out, opens nothing.
    const copy = await browser.newContext();
    await copy.addCookies(cookies);
    const copyPage = await copy.newPage();
    expect((await copyPage.request.get('/api/v4/user')).status()).toBe(401);
    await copyPage.goto(SESSIONS_PAGE);
    await expect(copyPage).toHaveURL(/\/sign-in(\?callbackUrl=[^&]+)?$/);
    await copy.close();
    await signedIn.context.close();
  });

  test('[SESSIONS] the page has no serious or critical accessibility violations', async ({ page, browser }) => {
    const username = await newUser(page);
    const other = await signedInBrowser(browser, username);
    const { context, page: own } = await signedInBrowser(browser, username);
    await own.goto(SESSIONS_PAGE);
    await expect(own.getByTestId('active-session')).toHaveCount(2);
    const check = async () => {
      const { violations } = await new AxeBuilder({ page: own }).analyze();
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
    };
    expect(await check()).toEqual([]);
    // And with the confirmation dialog open.
    await own.getByRole('button', { name: /^Revoke/ }).click();
    await expect(own.getByRole('dialog', { name: 'Revoke this session?' })).toBeVisible();
    expect(await check()).toEqual([]);
    await context.close();
    await other.context.close();
  });
});
