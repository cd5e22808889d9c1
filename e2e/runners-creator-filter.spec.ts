// [RUNNERS] The runner lists' Creator token (GitLab's filtered-search "Creator", a user token): users
// suggested from /api/v4/users?search=, the choice kept in the address as GitLab's `creator[]=<username>`
// so a bookmark opens the same list, on /admin/runners and /groups/<path>/-/runners.
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './support/axe';
import { sql } from './support/page-checks';
import { rootApi } from './support/runner-seed';
import { filterBox, urlParams } from './support/runner-filters';
import { uniq } from './support/session';

const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });

/** Runners created through the API belong to root; the creator is set as another user's POST /user/runners would. */
async function setCreator(runnerId: number, userId: number) {
  await sql('UPDATE ci_runners SET creator_id = $2 WHERE id = $1', [runnerId, userId]);
}

test('[RUNNERS] the Creator token suggests users, filters the admin and group lists, and survives a reload', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await rootApi(page);
  const tag = uniq('creator');
  const creator = await api.user('creator');
  const group = await api.group('creator-group');
  const mine = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} by creator`, tag_list: [tag] });
  await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} by root`, tag_list: [tag] });
  await setCreator(mine.id, creator.id);

  await page.goto(`/admin/runners?tag[]=${tag}`);
  await expect(rowOf(page, `${tag} by root`)).toBeVisible();
  const box = filterBox(page);
  await box.click();
  await box.fill('Crea');
  await page.getByRole('option', { name: /^Creator/ }).click();
  const value = page.getByRole('combobox', { name: 'Creator: choose or type a value' });
  await value.fill(creator.username.slice(0, 12));
  // The suggestion names the user and their @username (from GET /users?search=).
  const suggestion = page.getByRole('option', { name: new RegExp(`@${creator.username}`) });
  await expect(suggestion).toBeVisible();
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/runners-creator-suggestions-desktop.png` });
  await suggestion.click();

  await expect(page).toHaveURL(/creator%5B%5D=|creator\[\]=/);
  expect(urlParams(page, 'creator[]')).toEqual([creator.username]);
  await expect(page.getByRole('button', { name: `Remove filter Creator = ${creator.username}` })).toBeVisible();
  await expect(rowOf(page, `${tag} by creator`)).toBeVisible();
  await expect(rowOf(page, `${tag} by root`)).toHaveCount(0);
  await screenshot(page, 'runners-creator-token');

  // A bookmark: the same address opens the same list and token.
  await page.reload();
  await expect(page.getByRole('button', { name: `Remove filter Creator = ${creator.username}` })).toBeVisible();
  await expect(rowOf(page, `${tag} by creator`)).toBeVisible();
  await expect(rowOf(page, `${tag} by root`)).toHaveCount(0);

  // The token removes itself; the list is whole again.
  await page.getByRole('button', { name: `Remove filter Creator = ${creator.username}` }).click();
  await expect(rowOf(page, `${tag} by root`)).toBeVisible();
  expect(urlParams(page, 'creator[]')).toEqual([]);

  // The group list takes the same parameter; a username the API would refuse is dropped from the address.
  await page.goto(`/groups/${group.full_path}/-/runners?creator[]=root`);
  await expect(rowOf(page, `${tag} by root`)).toBeVisible();
  await expect(rowOf(page, `${tag} by creator`)).toHaveCount(0);
  await page.goto(`/groups/${group.full_path}/-/runners?creator[]=-bad`);
  await expect(rowOf(page, `${tag} by creator`)).toBeVisible();
  await expect.poll(() => urlParams(page, 'creator[]')).toEqual([]);
});
