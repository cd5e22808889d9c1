// [IAC] A project's general settings (/<path>/-/edit): a Maintainer changes feature levels and the merge
// request settings; what the page saved is what the API reports (the same PUT /projects/:id), and a reload
// shows it; the groups the project is shared with are listed; a Developer gets the not-found page. axe at 1280 and 390 px; screenshots with
// RUNWAY_E2E_SCREENSHOTS.
import { expect as baseExpect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const expect = baseExpect.configure({ timeout: 30_000 });
const PASSWORD = 'project-settings-e2e-password-1';

test('a Maintainer edits visibility, features and merge request settings; a Developer cannot open the page', async ({ page, browser }) => {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => jsonOf<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const user = async (prefix: string) => {
    const username = uniq(prefix).replace(/-/g, '_');
    return post<{ id: number; username: string }>('/users', {
      username,
      name: `Settings ${prefix}`,
      email: `${username}@example.com`,
      password: PASSWORD,
      skip_confirmation: true,
    });
  };
  const tag = uniq('ps');
  const group = await post<{ id: number; full_path: string }>('/groups', { name: `Settings ${tag}`, path: tag, visibility: 'private' });
  const project = await post<{ id: number; path_with_namespace: string }>('/projects', { name: 'App', path: 'app', namespace_id: group.id });
  const [maintainer, developer] = [await user('maint'), await user('dev')];
  await post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  // A group shared into the project shows under "Groups with access"; a private group the Maintainer cannot
  // read stays hidden, as shared_with_groups hides it from them.
  const reviewers = await post<{ id: number; full_path: string }>('/groups', { name: `Reviewers ${tag}`, path: `${tag}-reviewers`, visibility: 'internal' });
  const hidden = await post<{ id: number }>('/groups', { name: `Hidden ${tag}`, path: `${tag}-hidden`, visibility: 'private' });
  await post(`/projects/${project.id}/share`, { group_id: reviewers.id, group_access: 30, expires_at: '2999-12-31' });
  await post(`/projects/${project.id}/share`, { group_id: hidden.id, group_access: 20 });

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const m = await ctx.newPage();
  await signIn(m, maintainer.username, PASSWORD);
  await m.goto(`/${project.path_with_namespace}`);
  await m.getByRole('link', { name: /General settings/ }).click();
  await expect(m.getByRole('heading', { name: 'General Settings', level: 1 })).toBeVisible();
  // Visibility is for Owners only.
  await expect(m.getByLabel('Project visibility')).toBeDisabled();
  const shares = m.getByRole('region', { name: 'Groups with access' });
  await expect(shares.getByRole('listitem')).toHaveCount(1);
  await expect(shares.getByRole('link', { name: `Reviewers ${tag}` })).toHaveAttribute('href', `/groups/${reviewers.full_path}`);
  await expect(shares.getByText('Maximum role: Developer')).toBeVisible();
  await expectNoSeriousA11yViolations(m, 'general settings at 1280 px');
  await m.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(m, 'general settings at 390 px');
  await m.setViewportSize({ width: 1280, height: 900 });
  await screenshot(m, 'project-general-settings');

  const visibility = m.getByRole('region', { name: 'Visibility, project features, permissions' });
  await visibility.getByLabel('Issues', { exact: true }).selectOption('private');
  await visibility.getByLabel('Wiki', { exact: true }).selectOption('disabled');
  await visibility.getByRole('checkbox', { name: 'Git Large File Storage (LFS)' }).uncheck();
  await visibility.getByRole('button', { name: 'Save changes' }).click();
  await expect(m.getByText("Project 'App' was successfully updated.")).toBeVisible();

  const mrs = m.getByRole('region', { name: 'Merge requests' });
  await mrs.getByRole('radio', { name: /Fast-forward merge/ }).check();
  await mrs.getByRole('radio', { name: /Require/ }).check();
  await mrs.getByRole('checkbox', { name: 'Pipelines must succeed' }).check();
  await mrs.getByRole('button', { name: 'Save changes' }).click();
  await expect(m.getByText("Project 'App' was successfully updated.").first()).toBeVisible();

  await expect
    .poll(async () => {
      const p = await (await page.request.get(`/api/v4/projects/${project.id}`)).json();
      return [p.issues_access_level, p.wiki_access_level, p.lfs_enabled, p.merge_method, p.squash_option, p.only_allow_merge_if_pipeline_succeeds];
    })
    .toEqual(['private', 'disabled', false, 'ff', 'always', true]);
  await m.reload();
  await expect(m.getByLabel('Wiki', { exact: true })).toHaveValue('disabled');
  await expect(m.getByRole('radio', { name: /Fast-forward merge/ })).toBeChecked();

  const d = await (await browser.newContext()).newPage();
  await signIn(d, developer.username, PASSWORD);
  await d.goto(`/${project.path_with_namespace}/-/edit`);
  await expect(d.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
