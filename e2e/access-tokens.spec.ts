// [TOKENS] The Access tokens page: create a token (its value shown once), use it, revoke it; the list's
// pagination lives in the URL.
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, signIn, uniq } from './support/session';

const TOKENS_PAGE = '/-/user_settings/personal_access_tokens';
const table = (page: Page) => page.getByRole('table', { name: 'Personal access tokens' });
const rowOf = (page: Page, name: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(name, { exact: true }) });

test.describe('[TOKENS] personal access tokens', () => {
  test('[TOKENS] create a token, see it once, use it, revoke it', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page);
    await page.goto(TOKENS_PAGE);
    const name = uniq('e2e-token');

    await page.getByRole('button', { name: 'Add new token' }).click();
    const form = page.getByRole('form', { name: 'Add a personal access token' });
    await form.getByLabel('Token name').fill(name);
    await form.getByLabel('Description').fill('Used by the e2e test');
    await form.getByRole('checkbox', { name: /^read_api/ }).check();
    await form.getByRole('checkbox', { name: /^read_user/ }).check();
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v4/user/personal_access_tokens') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Create token' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ name, description: 'Used by the e2e test', scopes: ['read_api', 'read_user'], active: true, revoked: false });
    const value: string = body.token;
    expect(value).toMatch(/^glpat-/);

    // Shown once, with a copy button and a warning.
    const panel = page.getByRole('region', { name: 'Your new personal access token' });
    await expect(panel.getByLabel('Token value')).toHaveValue(value);
    await expect(panel.getByText('you won’t be able to see it again')).toBeVisible();
    await panel.getByRole('button', { name: 'Copy' }).click();
    await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

    // Listed, active, with its scopes.
    const row = rowOf(page, name);
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Active')).toBeVisible();
    await expect(row.getByText('read_user')).toBeVisible();
    await expect(row.getByText('Used by the e2e test')).toBeVisible();
    await expect(row.getByText('Never').first()).toBeVisible();

    // The token works against the API, without any cookie.
    const me = await request.get('/api/v4/user', { headers: { 'PRIVATE-TOKEN': value } });
    expect(me.status()).toBe(200);
    expect((await me.json()).username).toBe('root');

    // After a reload the value is gone for good.
    await page.reload();
    await expect(rowOf(page, name)).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Your new personal access token' })).toHaveCount(0);
    expect(await page.content()).not.toContain(value);

    // Revoke, after confirming.
    await rowOf(page, name).getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke “${name}”?` });
    await expect(dialog).toBeVisible();
    const revoked = page.waitForResponse((r) => /\/api\/v4\/personal_access_tokens\/\d+$/.test(r.url()) && r.request().method() === 'DELETE');
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    expect((await revoked).status()).toBe(204);
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, name)).toHaveCount(0);

    await page.getByRole('tab', { name: 'Inactive' }).click();
    await expect(page).toHaveURL(/state=inactive/);
    await expect(rowOf(page, name).getByText('Revoked')).toBeVisible();

    const after = await request.get('/api/v4/user', { headers: { 'PRIVATE-TOKEN': value } });
    expect(after.status()).toBe(401);
  });

  test('[TOKENS] the form explains what is missing and what the API refused, by the field', async ({ page }) => {
    await signIn(page);
    await page.goto(TOKENS_PAGE);
    await page.getByRole('button', { name: 'Add new token' }).click();
    const form = page.getByRole('form', { name: 'Add a personal access token' });
    const nameField = form.getByLabel('Token name');
    const expires = form.getByLabel('Expiration date');
    await form.getByRole('button', { name: 'Create token' }).click();
    await expect(form.locator('#token-name-error')).toHaveText('Enter a token name.');
    await expect(form.locator('#token-scopes-error')).toHaveText('Select at least one scope.');
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(nameField).toHaveAccessibleDescription('Enter a token name.');
    await nameField.fill(uniq('no-scopes'));
    await form.getByRole('button', { name: 'Create token' }).click();
    await expect(form.locator('#token-name-error')).toHaveCount(0);
    await expect(form.locator('#token-scopes-error')).toHaveText('Select at least one scope.');

    // The picker starts tomorrow, as GitLab's does; a typed past date is refused by the API, by the field.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await expect(expires).toHaveAttribute('min', tomorrow);
    await form.getByRole('checkbox', { name: /^read_api/ }).check();
    await expires.fill('2020-01-01');
    const isCreate = (r: { url(): string; request(): { method(): string } }) =>
      r.url().endsWith('/api/v4/user/personal_access_tokens') && r.request().method() === 'POST';
    let refused = page.waitForResponse(isCreate);
    await form.getByRole('button', { name: 'Create token' }).click();
    let response = await refused;
    expect(response.status()).toBe(422);
    expect(await response.json()).toEqual({ message: 'Expires at cannot be a date in the past' });
    await expect(form.locator('#token-expires_at-error')).toHaveText('Expires at cannot be a date in the past.');
    await expect(expires).toHaveAttribute('aria-invalid', 'true');
    await expect(expires).toHaveAccessibleDescription('Expires at cannot be a date in the past.');
    await expect(form.getByRole('alert')).toHaveText('The token was not created: check the highlighted fields.');

    // Beyond the maximum lifetime: the API's other refusal, by the same field.
    await expires.fill('2999-01-01');
    refused = page.waitForResponse(isCreate);
    await form.getByRole('button', { name: 'Create token' }).click();
    response = await refused;
    expect(response.status()).toBe(422);
    await expect(form.locator('#token-expires_at-error')).toHaveText(/^Expires at must be before \d{4}-\d{2}-\d{2}\.$/);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toHaveCount(0);
  });

  test('[TOKENS] pages through the list with the page in the URL', async ({ page }) => {
    await signIn(page);
    await page.goto(TOKENS_PAGE);
    const csrf = await csrfToken(page);
    // Enough tokens for a second page whatever the other tests created (20 per page).
    const prefix = uniq('paged');
    for (let i = 0; i < 21; i++) {
      const res = await page.request.post('/api/v4/user/personal_access_tokens', {
        data: { name: `${prefix}-${i}`, scopes: ['read_api'] },
        headers: { 'X-CSRF-Token': csrf },
      });
      expect(res.status()).toBe(201);
    }
    await page.reload();
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await expect(table(page).getByRole('row')).toHaveCount(21); // header + 20
    await expect(pager).toContainText('Page 1 of');
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(pager).toContainText('Page 2 of');

    // The URL is the state: opening it directly shows the same page.
    await page.goto(`${TOKENS_PAGE}?page=2`);
    await expect(pager).toContainText('Page 2 of');
    await pager.getByRole('button', { name: 'Previous' }).click();
    await expect(page).toHaveURL(new RegExp(`${TOKENS_PAGE}$`));
    await expect(pager).toContainText('Page 1 of');
  });
});
