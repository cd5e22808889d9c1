// [RUNNERS] Upgrade status (issue 33): GitLab's "Upgrade recommended" badge on a runner list row and on the
// runner page (beside its version and its manager's), the runner lists' "Upgrade status" token kept in the
// address as GitLab's `upgrade_status[]=RECOMMENDED`, and the fleet dashboard's versions by status with the
// age of the release list, at 1280 and 390 px. The runners report their versions through the runner API, as
// gitlab-runner does; the statuses come from the list Runway ships, against GitLab 18.6.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { filterBox, filterRunners, urlParams } from './support/runner-filters';
import { rootApi } from './support/runner-seed';
import { uniq } from './support/session';
import { ROOT } from '../tests/support/server';

const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });

/** The newest 18.6 patch of the shipped release list: up to date against GitLab 18.6. */
function current186(): string {
  const file = path.join(ROOT, 'lib', 'runners', 'data', 'gitlab-runner-releases.json');
  const versions: string[] = JSON.parse(readFileSync(file, 'utf8')).versions;
  const patches = versions.filter((v) => /^v18\.6\.\d+$/.test(v)).map((v) => Number(v.split('.')[2]));
  return `18.6.${Math.max(...patches)}`;
}

async function screenshotAt(page: Page, name: string, width: number) {
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
}

test.describe('[RUNNERS] runner upgrade status', () => {
  test.describe.configure({ timeout: 240_000 });

  test('[RUNNERS] the badge on list rows and the runner page, the Upgrade status token, the fleet dashboard by status, at 1280 and 390 px', async ({
    page,
  }) => {
    const api = await rootApi(page);
    const tag = uniq('upgrade');
    const old = await api.runner({ runner_type: 'instance_type', description: `${tag} old`, tag_list: [tag] });
    const current = await api.runner({ runner_type: 'instance_type', description: `${tag} current`, tag_list: [tag] });
    // Each runner asks for a job once, reporting its version as gitlab-runner does.
    for (const [runner, version] of [
      [old, '17.11.0'],
      [current, current186()],
    ] as const) {
      const polled = await page.request.post('/api/v4/jobs/request', {
        data: { token: runner.token, system_id: `s_${uniq('m').replace(/-/g, '')}`, info: { version, platform: 'linux', architecture: 'amd64' } },
      });
      expect(polled.status(), await polled.text()).toBe(204);
    }
    await expect.poll(async () => (await api.get(`/runners/${old.id}`)).upgrade_status, { timeout: 30_000 }).toBe('recommended');
    await expect.poll(async () => (await api.get(`/runners/${current.id}`)).upgrade_status, { timeout: 30_000 }).toBe('not_available');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });

      // The list: the old runner's row says so, in GitLab's words, the current one's says nothing.
      await page.goto(`/admin/runners?tag[]=${tag}`);
      await expect(rowOf(page, `${tag} old`).getByText('Upgrade recommended')).toBeVisible();
      await expect(rowOf(page, `${tag} old`).locator('[title="This runner is outdated, an upgrade is recommended"]')).toHaveCount(1);
      await expect(rowOf(page, `${tag} current`)).toBeVisible();
      await expect(rowOf(page, `${tag} current`).getByText(/^Upgrade/)).toHaveCount(0);

      // The token: Upgrade status = Recommended keeps the old runner only, in GitLab's parameter.
      if (width === 390) await page.getByRole('button', { name: /^Filter/ }).click();
      await filterRunners(page, 'Upgrade status', 'Recommended');
      await expect.poll(() => urlParams(page, 'upgrade_status[]')).toEqual(['RECOMMENDED']);
      await expect(page.getByRole('button', { name: 'Remove filter Upgrade status = Recommended' })).toBeVisible();
      await expect(rowOf(page, `${tag} old`)).toBeVisible();
      await expect(rowOf(page, `${tag} current`)).toHaveCount(0);
      // The token list closed, as a user leaving the box finds the page.
      await filterBox(page).press('Escape');
      await expectNoSeriousA11yViolations(page, `the filtered runner list at ${width} px`);
      await screenshotAt(page, 'runners-upgrade-status-list', width);

      // Up to date: the current runner only; the token's choice is replaced.
      await page.getByRole('button', { name: 'Remove filter Upgrade status = Recommended' }).click();
      await filterRunners(page, 'Upgrade status', 'Up to date');
      await expect.poll(() => urlParams(page, 'upgrade_status[]')).toEqual(['NOT_AVAILABLE']);
      await expect(rowOf(page, `${tag} current`)).toBeVisible();
      await expect(rowOf(page, `${tag} old`)).toHaveCount(0);

      // The runner page: beside the version, and beside its manager's version.
      await page.goto(`/admin/runners/${old.id}`);
      const details = page.getByRole('region', { name: 'Runner details' });
      await expect(details.getByText('Upgrade recommended')).toBeVisible();
      await expect(details).toContainText('17.11.0');
      await expect(page.getByRole('table', { name: 'Runner managers' }).getByText('Upgrade recommended')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `the runner page at ${width} px`);
      await screenshotAt(page, 'runner-upgrade-status-page', width);

      // The fleet dashboard: runners by upgrade status, each linked to the filtered list, and how old the release list is.
      await page.goto('/admin/runners/dashboard');
      const counts = page.getByRole('list', { name: 'Runners by upgrade status' });
      await expect(counts.getByTestId('upgrade-recommended')).toContainText(/Upgrade recommended\s*\d/, { timeout: 20_000 });
      await expect(page.getByTestId('release-list')).toContainText(/Compared with the gitlab-runner releases of \w{3} \d+, \d{4} \(\d+ days? old\)/);
      await expect(page.getByTestId('release-list')).toContainText('against GitLab 18.6.0');
      const versions = page.getByRole('table', { name: 'Runner managers by version' });
      await expect(versions.locator('tbody[data-upgrade-group="recommended"]')).toContainText('17.11.0');
      await expect(versions.locator('tbody[data-upgrade-group="not_available"]')).toContainText(current186());
      await expectNoSeriousA11yViolations(page, `the fleet dashboard at ${width} px`);
      await screenshotAt(page, 'fleet-upgrade-status', width);
      if (width === 1280) {
        await counts.getByRole('link', { name: 'View runners: upgrade recommended' }).click();
        await expect(page).toHaveURL(/\/admin\/runners\?upgrade_status(%5B%5D|\[\])=RECOMMENDED$/);
        await expect(page.getByRole('button', { name: 'Remove filter Upgrade status = Recommended' })).toBeVisible();
      }
    }
  });
});
