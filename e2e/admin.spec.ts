// [ADMIN] The Admin area's users, groups and projects pages: creating a user through the form (the API's
// validation message beside the field), block/unblock, make admin, unlock a sign-in lock, delete after
// confirmation; deleting a project after typing its full path; not-found for non-admins; axe at desktop
// and 390 px. With RUNWAY_E2E_SCREENSHOTS=<dir>, the pages are also saved at both widths.
import { expect, request as newRequest, test, type Page } from '@playwright/test';
import pg from 'pg';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expectIconActions } from './support/page-checks';
import { csrfToken, jsonOf as json, signIn, uniq } from './support/session';

const PASSWORD = 'admin-e2e-password-1';

/** Seeds through the API with the signed-in administrator's session (cookie + CSRF token). */
async function rootApi(page: Page) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T>(path: string, data: Record<string, unknown>) => json<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  return {
    user: (username: string) =>
      post<{ id: number; username: string }>('/users', {
        username,
        name: `Admin e2e ${username}`,
        email: `${username}@example.com`,
        password: PASSWORD,
        skip_confirmation: true,
      }),
    group: (path: string) => post<{ id: number; full_path: string }>('/groups', { name: path, path }),
    owner: (groupId: number, userId: number) => post(`/groups/${groupId}/members`, { user_id: userId, access_level: 50 }),
    removeMember: async (groupId: number, userId: number) =>
      expect((await page.request.delete(`/api/v4/groups/${groupId}/members/${userId}`, { headers })).status()).toBe(204),
    project: (name: string) => post<{ id: number; path_with_namespace: string }>('/projects', { name, path: name }),
  };
}

/** axe at desktop width and at 390 px; the PNGs too when RUNWAY_E2E_SCREENSHOTS names a folder. */
async function checkBothWidths(page: Page, name: string) {
  const size = page.viewportSize()!;
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectNoSeriousA11yViolations(page, `${name} at ${width} px`);
    if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** Failed sign-ins through next-auth's endpoints, from this machine's address, as a guesser would make them. */
async function failSignIns(baseURL: string, login: string, times: number) {
  const client = await newRequest.newContext({ baseURL });
  for (let i = 0; i < times; i++) {
    const { csrfToken } = await json<{ csrfToken: string }>(await client.get('/api/auth/csrf'), 200);
    const res = await client.post('/api/auth/callback/credentials', { form: { csrfToken, username: login, password: `wrong-${i}`, json: 'true' } });
    expect((await res.json()).url).toContain('error=');
  }
  await client.dispose();
}

/**
 * Locks the account for everyone, as 100 failures from 10 addresses would (this machine is one address):
 * users.locked_at is GitLab's lock, which the API shows as `locked`.
 */
async function lockForEveryone(userId: number) {
  const client = new pg.Client({ connectionString: process.env.RUNWAY_E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query('UPDATE users SET locked_at = now() WHERE id = $1', [userId]);
  } finally {
    await client.end();
  }
}

const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });
const rowOf = (page: Page, name: string, text: string) => table(page, name).getByRole('row').filter({ hasText: text });

test.describe('[ADMIN] admin pages', () => {
  test('[ADMIN] create a user through the form, block, unblock, make admin and delete them', async ({ page }) => {
    // A whole workflow with accessibility checks at two widths: more than one default timeout on a busy machine.
    test.slow();
    await signIn(page);
    const username = uniq('admin_e2e').replace(/-/g, '_');

    // The overview leads to the users list.
    await page.goto('/admin');
    await page.getByTestId('count-users').getByRole('link', { name: 'View users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await checkBothWidths(page, 'admin-users');

    // New user: the API refuses a bad email, and its message shows beside the field.
    await page.getByRole('link', { name: 'New user' }).click();
    await expect(page).toHaveURL(/\/admin\/users\/new$/);
    await page.getByLabel('Name', { exact: true }).fill(`Admin e2e ${username}`);
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#user-email-error')).toHaveText('Email is invalid');
    await checkBothWidths(page, 'admin-new-user-errors');
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);

    // Search (server-side, in the URL) finds the new user.
    await page.getByRole('search', { name: 'Search users' }).getByRole('searchbox').fill(username);
    await expect(page).toHaveURL(new RegExp(`[?&]search=${username}`));
    await expect(table(page, 'Users').getByRole('row')).toHaveCount(2);
    const row = rowOf(page, 'Users', `@${username}`);
    await expect(row).toContainText(`${username}@example.com`);
    await expect(row.getByText('Blocked', { exact: true })).toHaveCount(0);
    // The runner lists' row actions: icon buttons with names and tooltips, Delete drawn as destructive.
    await expectIconActions(row.getByRole('group', { name: `Actions for ${username}` }), /^Delete/);

    // Block and Unblock are one button: pressed from the keyboard, it keeps focus as its name changes.
    await row.getByRole('button', { name: 'Block', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(row.getByText('Blocked', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Unblock' })).toBeFocused();
    await expect(row.getByRole('button', { name: 'Unblock' }).getByRole('tooltip')).toBeVisible();
    await row.getByRole('button', { name: 'Unblock' }).click();
    await expect(row.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
    await expect(row.getByText('Blocked', { exact: true })).toHaveCount(0);

    await row.getByRole('button', { name: 'Make admin' }).click();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Remove admin' })).toBeVisible();
    const check = await page.request.get(`/api/v4/users?username=${username}`);
    expect((await json<Array<{ is_admin: boolean; state: string }>>(check, 200))[0]).toMatchObject({ is_admin: true, state: 'active' });

    // Edit: the form holds the user's values; a new name is saved.
    await row.getByRole('link', { name: `Edit ${username}` }).click();
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(username);
    await expect(page.getByLabel('Administrator')).toBeChecked();
    await page.getByLabel('Name', { exact: true }).fill(`Renamed ${username}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await page.goto(`/admin/users?search=${username}`);
    await expect(rowOf(page, 'Users', `@${username}`)).toContainText(`Renamed ${username}`);

    // Delete, after GitLab's confirmation.
    await rowOf(page, 'Users', `@${username}`).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user' });
    await expect(dialog).toContainText(`Renamed ${username}`);
    await checkBothWidths(page, 'admin-delete-user');
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`No users match "${username}"`)).toBeVisible();
    expect(await json<unknown[]>(await page.request.get(`/api/v4/users?username=${username}`), 200)).toEqual([]);
  });

  test('[ADMIN] unlock a locked user from the user page and from the users list', async ({ page, browser, baseURL }) => {
    // Ten Argon2 checks, axe at two widths and a second browser: more than the default minute when loaded.
    test.setTimeout(180_000);
    const api = await rootApi(page);
    const locked = await api.user(uniq('locked').replace(/-/g, '_'));
    // Ten wrong passwords lock this machine's address out of the account; the lock for everyone on top.
    await failSignIns(baseURL!, locked.username, 10);
    await lockForEveryone(locked.id);

    await page.goto(`/admin/users?search=${locked.username}`);
    const row = rowOf(page, 'Users', `@${locked.username}`);
    await expect(row.getByText('Locked', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Unlock' })).toBeVisible();

    // The user's admin page says so and offers "Unlock user".
    await row.getByRole('link', { name: `Edit ${locked.username}` }).click();
    const notice = page.getByRole('region', { name: 'This user is locked' });
    await expect(notice).toContainText('Too many failed sign-in attempts locked this account.');
    await checkBothWidths(page, 'admin-user-locked');
    const unlocked = page.waitForResponse((r) => r.url().endsWith(`/api/v4/users/${locked.id}/unlock`) && r.request().method() === 'POST');
    await notice.getByRole('button', { name: 'Unlock user' }).click();
    expect((await unlocked).status()).toBe(201);
    await expect(notice).toBeHidden();
    expect((await json<{ locked: boolean }>(await page.request.get(`/api/v4/users/${locked.id}`), 200)).locked).toBe(false);

    // Both locks are gone: the user signs in from this machine's address with the right password.
    const userPage = await (await browser.newContext()).newPage();
    await signIn(userPage, locked.username, PASSWORD);
    await userPage.context().close();

    // Locked again, the list's own Unlock lifts it too.
    await lockForEveryone(locked.id);
    await page.goto(`/admin/users?search=${locked.username}`);
    await expect(row.getByText('Locked', { exact: true })).toBeVisible();
    // From the keyboard: once done, Unlock leaves the row's actions and focus moves to the one in its place.
    await row.getByRole('button', { name: 'Unlock' }).focus();
    await page.keyboard.press('Enter');
    await expect(row.getByText('Locked', { exact: true })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Unlock' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Make admin' })).toBeFocused();
  });

  test('[ADMIN] a lock of one address only shows as Locked, and Unlock lifts it with a toast', async ({ page, browser, baseURL }) => {
    // Ten Argon2 checks and a second browser: more than the default minute when loaded.
    test.setTimeout(180_000);
    const api = await rootApi(page);
    const locked = await api.user(uniq('addrlock').replace(/-/g, '_'));
    // Ten wrong passwords from this machine's address: the user is refused from here ("Your account is
    // locked."), while the account itself (users.locked_at) stays unlocked.
    await failSignIns(baseURL!, locked.username, 10);
    expect((await json<{ locked: boolean }>(await page.request.get(`/api/v4/users/${locked.id}`), 200)).locked).toBe(true);
    const listed = await json<Array<{ id: number; locked: boolean }>>(await page.request.get(`/api/v4/users?username=${locked.username}`), 200);
    expect(listed.map((u) => u.locked)).toEqual([true]);

    await page.goto(`/admin/users?search=${locked.username}`);
    const row = rowOf(page, 'Users', `@${locked.username}`);
    await expect(row.getByText('Locked', { exact: true })).toBeVisible();
    // When the lock ends: the lock period (10 minutes by default) after the tenth failure, just now.
    await expect(row.getByText(/^ends in (10|9) minutes$/)).toBeVisible();
    await row.getByRole('link', { name: `Edit ${locked.username}` }).click();
    const notice = page.getByRole('region', { name: 'This user is locked' });
    await expect(notice).toContainText(/it ends by itself in (10|9) minutes \(\w{3} \d+, \d{4}, \d+:\d\d [AP]M UTC\), or you can unlock it now\./);
    await notice.getByRole('button', { name: 'Unlock user' }).click();
    await expect(page.getByText(`Successfully unlocked @${locked.username}`)).toBeVisible();
    await expect(notice).toBeHidden();
    expect((await json<{ locked: boolean }>(await page.request.get(`/api/v4/users/${locked.id}`), 200)).locked).toBe(false);
    const userPage = await (await browser.newContext()).newPage();
    await signIn(userPage, locked.username, PASSWORD);
    await userPage.context().close();
  });

  test('[ADMIN] deleting the sole owner of a group shows the refusal and offers "Delete user and contributions"', async ({ page }) => {
    const api = await rootApi(page);
    const owner = await api.user(uniq('owner').replace(/-/g, '_'));
    const group = await api.group(uniq('owned'));
    await api.owner(group.id, owner.id);
    const root = await json<{ id: number }>(await page.request.get('/api/v4/user'), 200);
    await api.removeMember(group.id, root.id);

    await page.goto(`/admin/users?search=${owner.username}`);
    await rowOf(page, 'Users', `@${owner.username}`).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user' });
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('User cannot be removed while is the sole-owner of a group.');
    await dialog.getByRole('button', { name: 'Delete user and contributions' }).click();
    await expect(dialog).toBeHidden();
    expect(await json<unknown[]>(await page.request.get(`/api/v4/users?username=${owner.username}`), 200)).toEqual([]);
  });

  test('[ADMIN] delete a project from /admin/projects after typing its full path', async ({ page }) => {
    // A whole workflow with accessibility checks at two widths: more than one default timeout on a busy machine.
    test.slow();
    const api = await rootApi(page);
    const name = uniq('admin-doomed');
    const project = await api.project(name);

    await page.goto('/admin');
    await page.getByTestId('count-projects').getByRole('link', { name: 'View projects' }).click();
    await expect(page).toHaveURL(/\/admin\/projects$/);
    await page.goto(`/admin/projects?search=${name}`);
    const row = rowOf(page, 'Projects', name);
    await expect(row.getByRole('link', { name })).toHaveAttribute('href', `/${project.path_with_namespace}`);
    await checkBothWidths(page, 'admin-projects');

    await row.getByRole('button', { name: `Delete ${project.path_with_namespace}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project' });
    await expect(dialog).toContainText(`Enter the following to confirm: ${project.path_with_namespace}`);
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Enter the following to confirm').fill(name);
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Enter the following to confirm').fill(project.path_with_namespace);
    await checkBothWidths(page, 'admin-delete-project');
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`No projects match "${name}"`)).toBeVisible();
    expect((await page.request.get(`/api/v4/projects/${project.id}`)).status()).toBe(404);

    await page.goto('/admin/groups');
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
    await checkBothWidths(page, 'admin-groups');
  });

  test('[ADMIN] a non-admin gets not-found on /admin/users, /admin/groups and /admin/projects', async ({ page, browser }) => {
    const api = await rootApi(page);
    const plain = await api.user(uniq('plain').replace(/-/g, '_'));
    const user = await (await browser.newContext()).newPage();
    await signIn(user, plain.username, PASSWORD);
    for (const path of ['/admin/users', '/admin/users/new', `/admin/users/${plain.id}/edit`, '/admin/groups', '/admin/projects']) {
      const res = await user.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(user.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    }
  });
});
