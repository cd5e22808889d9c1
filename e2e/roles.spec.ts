// [RUNNERS] Each role's view of the runner pages, seeded through the API: a group with a project, runners of
// every kind, and users who are the administrator, a group owner, a project maintainer, a developer, a
// reporter, a guest and a non-member. Each one opens /admin/runners, the group's runners, the group's and the
// project's CI/CD settings and the runners' pages, and sees exactly what GitLab's policies let them do; a
// refused action shows the API's message where the user acted.
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { checkPage, DEVELOPER, MAINTAINER, OWNER, rootApi, signedInAs } from './support/runner-seed';
import { uniq } from './support/session';

// The CI machine is shared and slow: every page waits generously for its data.
const expect = baseExpect.configure({ timeout: 30_000 });

const REPORTER = 20;
const GUEST = 10;
type Role = 'admin' | 'owner' | 'maintainer' | 'developer' | 'reporter' | 'guest' | 'outsider';
const ROLES: Role[] = ['admin', 'owner', 'maintainer', 'developer', 'reporter', 'guest', 'outsider'];

const notFound = (page: Page) => page.getByRole('heading', { name: 'Page not found' });
const actions = (page: Page) => [
  page.getByRole('link', { name: 'Edit', exact: true }),
  page.getByRole('button', { name: 'Pause', exact: true }),
  page.getByRole('button', { name: 'Delete', exact: true }),
];

test.describe('[RUNNERS] roles', () => {
  test.describe.configure({ timeout: 420_000 });

  test("[RUNNERS] roles: each role's view of the admin list, the group and project runner pages and settings", async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('roles');
    const project = await api.project('roles-app', group.id);
    const users = {} as Record<Exclude<Role, 'admin'>, { id: number; username: string }>;
    for (const role of ['owner', 'maintainer', 'developer', 'reporter', 'guest', 'outsider'] as const) users[role] = await api.user(role);
    await api.member('groups', group.id, users.owner.id, OWNER);
    await api.member('projects', project.id, users.maintainer.id, MAINTAINER);
    await api.member('projects', project.id, users.developer.id, DEVELOPER);
    await api.member('projects', project.id, users.reporter.id, REPORTER);
    await api.member('projects', project.id, users.guest.id, GUEST);
    const tag = uniq('roles');
    const instanceRunner = await api.runner({ runner_type: 'instance_type', description: `${tag} instance` });
    const groupRunner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group` });
    const projectRunner = await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} project` });

    const groupRunners = `/groups/${group.full_path}/-/runners`;
    const groupSettings = `/groups/${group.full_path}/-/settings/ci_cd`;
    const projectSettings = `/${project.path_with_namespace}/-/settings/ci_cd`;
    const projectRunnerPage = (id: number) => `/${project.path_with_namespace}/-/runners/${id}`;

    for (const role of ROLES) {
      const user = role === 'admin' ? page : await signedInAs(browser, users[role].username);
      await test.step(`${role}: /admin/runners`, async () => {
        await user.goto('/admin/runners');
        if (role === 'admin') {
          await expect(user.getByRole('table', { name: 'Runners', exact: true }).getByText(`${tag} project`)).toBeVisible({ timeout: 30_000 });
          await expect(user.getByRole('link', { name: 'New instance runner' })).toBeVisible();
        } else {
          await expect(notFound(user)).toBeVisible();
          await expect(user.getByRole('table')).toHaveCount(0);
          await expect(user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' })).toHaveCount(0);
          if (role === 'developer') await checkPage(user, 'roles-admin-runners-not-found');
        }
      });

      await test.step(`${role}: the group's runners`, async () => {
        await user.goto(groupRunners);
        if (role === 'admin' || role === 'owner') {
          await expect(user.getByRole('table', { name: 'Runners', exact: true }).getByText(`${tag} group`)).toBeVisible({ timeout: 30_000 });
          await expect(user.getByRole('link', { name: 'New group runner' })).toBeVisible();
          if (role === 'owner') await checkPage(user, 'roles-group-runners-owner');
        } else if (role === 'outsider') {
          // A private group is not there for a non-member.
          await expect(notFound(user)).toBeVisible();
        } else {
          // Project members may read the group (they read a project inside), not its runners: GitLab's page,
          // like the API's refusal, does not show them; the page is not found (HTTP 404).
          const res = await user.goto(groupRunners);
          expect(res?.status()).toBe(404);
          await expect(notFound(user)).toBeVisible();
          await expect(user.getByRole('table')).toHaveCount(0);
          await expect(user.getByRole('link', { name: 'New group runner' })).toHaveCount(0);
        }
      });

      await test.step(`${role}: the group's CI/CD settings`, async () => {
        await user.goto(groupSettings);
        if (role === 'admin' || role === 'owner') {
          await expect(user.getByRole('switch', { name: 'Enable instance runners for this group' })).toBeVisible();
        } else {
          await expect(notFound(user)).toBeVisible();
          await expect(user.getByRole('switch')).toHaveCount(0);
        }
      });

      await test.step(`${role}: the project's CI/CD settings`, async () => {
        await user.goto(projectSettings);
        if (role === 'admin' || role === 'owner' || role === 'maintainer') {
          await expect(
            user.getByRole('table', { name: 'Assigned project runners', exact: true }).getByRole('link', { name: new RegExp(`^#${projectRunner.id}\\b`) }),
          ).toBeVisible({ timeout: 30_000 });
          // The instance runner switch lives in the Instance tab, as in GitLab.
          await user.getByRole('tab', { name: /^Instance/ }).click();
          await expect(user.getByRole('switch', { name: 'Turn on instance runners for this project' })).toBeVisible();
        } else {
          // GitLab's CI/CD settings need Maintainer: everyone else is answered not found.
          await expect(notFound(user)).toBeVisible();
          await expect(user.getByRole('switch')).toHaveCount(0);
        }
      });

      await test.step(`${role}: the project runner's page`, async () => {
        await user.goto(projectRunnerPage(projectRunner.id));
        if (role === 'admin' || role === 'owner' || role === 'maintainer') {
          await expect(user.getByRole('heading', { level: 1 })).toContainText(`#${projectRunner.id}`);
          for (const action of actions(user)) await expect(action).toBeVisible();
          if (role === 'maintainer') await checkPage(user, 'roles-project-runner-maintainer');
        } else {
          // Below Maintainer (and outside the project) a project runner is not theirs to read: not found (HTTP 404),
          // as GitLab answers, so the page does not confirm that the runner exists.
          const res = await user.goto(projectRunnerPage(projectRunner.id));
          expect(res?.status()).toBe(404);
          await expect(notFound(user)).toBeVisible();
          for (const action of actions(user)) await expect(action).toHaveCount(0);
        }
      });

      await test.step(`${role}: the instance runner from the project`, async () => {
        await user.goto(projectRunnerPage(instanceRunner.id));
        // Only administrators act on instance runners; the rest see no action they could not take.
        if (role === 'admin') {
          for (const action of actions(user)) await expect(action).toBeVisible();
        } else {
          const shown = user
            .getByRole('heading', { level: 1 })
            .filter({ hasText: `#${instanceRunner.id}` })
            .or(notFound(user));
          await expect(shown.first()).toBeVisible();
          for (const action of actions(user)) await expect(action).toHaveCount(0);
        }
      });

      await test.step(`${role}: the group runner's page`, async () => {
        await user.goto(`${groupRunners}/${groupRunner.id}`);
        if (role === 'admin' || role === 'owner') {
          await expect(user.getByRole('heading', { level: 1 })).toContainText(`#${groupRunner.id}`);
          for (const action of actions(user)) await expect(action).toBeVisible();
        } else {
          for (const action of actions(user)) await expect(action).toHaveCount(0);
        }
      });
      if (role !== 'admin') await user.context().close();
    }
  });

  test('[RUNNERS] roles: a refused action shows the API message, in plain words, where the user acted', async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('refusal');
    const project = await api.project('refusal-app', group.id);
    const maintainer = await api.user('maintainer');
    await api.member('projects', project.id, maintainer.id, MAINTAINER);
    const own = await api.runner({ runner_type: 'project_type', project_id: project.id, description: uniq('own') });

    const user = await signedInAs(browser, maintainer.username);
    await user.goto(`/${project.path_with_namespace}/-/settings/ci_cd`);
    const row = user
      .getByRole('table', { name: 'Assigned project runners', exact: true })
      .getByRole('row')
      .filter({ has: user.getByRole('link', { name: new RegExp(`^#${own.id}\\b`) }) });
    // The owner project keeps its runner: GitLab offers no "Disable" there (the API would refuse it).
    await expect(row.getByRole('button', { name: /^Pause runner #/ })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Disable/ })).toHaveCount(0);
    // The maintainer is lowered to Developer meanwhile: the pause is refused ("403 Forbidden - No access
    // granted"), and the row says so in words.
    const headers = { 'X-CSRF-Token': (await page.locator('meta[name="csrf-token"]').getAttribute('content'))! };
    const lowered = await page.request.put(`/api/v4/projects/${project.id}/members/${maintainer.id}`, { data: { access_level: DEVELOPER }, headers });
    expect(lowered.status()).toBe(200);
    await row.getByRole('button', { name: /^Pause runner #/ }).click();
    await expect(row.getByRole('alert')).toHaveText('Failed to pause runner. You do not have permission to do this.');
    await expect(row).toBeVisible();
    await checkPage(user, 'roles-refused');
    await user.context().close();
  });
});
