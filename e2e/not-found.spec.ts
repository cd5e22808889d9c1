// [NAVIGATION] Real 404s: an unknown address, and a project, group, merge request or runner the signed-in user
// may not read, answer the document with HTTP 404 and show the not-found page, as GitLab does (a page must not
// answer 200 with "Page not found", nor confirm that a hidden runner or group's runners exist).
import { expect, test, type Page } from '@playwright/test';
import { DEVELOPER, rootApi, signedInAs } from './support/runner-seed';
import { uniq } from './support/session';

const notFound = (page: Page) => page.getByRole('heading', { name: 'Page not found' });

/** Opens `path` and expects the document's own answer to be a 404 showing the not-found page. */
async function expectNotFound(page: Page, path: string) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(404);
  await expect(notFound(page), path).toBeVisible();
  await expect(page.getByTestId('current-user')).toBeVisible(); // inside the signed-in layout
}

test.describe('[NAVIGATION] not found is HTTP 404', () => {
  test('[NAVIGATION] unknown addresses outside /admin answer 404, known ones 200', async ({ page }) => {
    const api = await rootApi(page);
    const project = await api.project('found');
    const tag = uniq('nothere');
    for (const path of [
      '/no/such/page',
      `/${tag}`,
      `/${tag}/${tag}`,
      `/groups/${tag}`,
      `/groups/${tag}/-/runners`,
      `/${project.path_with_namespace}/-/merge_requests/999999`,
    ]) {
      await expectNotFound(page, path);
    }
    await expectNotFound(page, '/admin/runners/2147483000');
    // The page that exists still answers 200.
    const found = await page.goto(`/${project.path_with_namespace}`);
    expect(found?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: project.name })).toBeVisible();
  });

  test("[NAVIGATION] a project, group, group's runners or runner the user may not read is 404, as the API answers", async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('hidden');
    const project = await api.project('inside', group.id);
    const outsider = await api.user('outsider');
    const developer = await api.user('developer');
    await api.member('projects', project.id, developer.id, DEVELOPER);
    const runner = await api.runner({ runner_type: 'project_type', project_id: project.id, description: uniq('hidden-runner') });
    const groupRunner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('hidden-group-runner') });

    const out = await signedInAs(browser, outsider.username);
    // The API: the same objects are not found for this user.
    expect((await out.request.get(`/api/v4/projects/${project.id}`)).status()).toBe(404);
    expect((await out.request.get(`/api/v4/groups/${group.id}`)).status()).toBe(404);
    for (const path of [`/${project.path_with_namespace}`, `/groups/${group.full_path}`, `/${group.full_path}`, `/groups/${group.full_path}/-/runners`]) {
      await expectNotFound(out, path);
    }
    await expectNotFound(out, `/${project.path_with_namespace}/-/runners/${runner.id}`);
    await out.context().close();

    // A Developer of the project reads the project and the group, not the runners: the API refuses them,
    // GitLab's pages answer 404 (not "You cannot view this runner").
    const dev = await signedInAs(browser, developer.username);
    expect((await dev.request.get(`/api/v4/runners/${runner.id}`)).status()).toBe(403);
    expect((await dev.request.get(`/api/v4/groups/${group.id}/runners`)).status()).toBe(403);
    await expectNotFound(dev, `/${project.path_with_namespace}/-/runners/${runner.id}`);
    await expectNotFound(dev, `/groups/${group.full_path}/-/runners`);
    await expectNotFound(dev, `/groups/${group.full_path}/-/runners/${groupRunner.id}`);
    await expect(dev.getByText('You cannot view this runner')).toHaveCount(0);
    const readable = await dev.goto(`/${project.path_with_namespace}`);
    expect(readable?.status()).toBe(200);
    await expect(dev.getByRole('heading', { level: 1, name: project.name })).toBeVisible();
    await dev.context().close();
  });
});
