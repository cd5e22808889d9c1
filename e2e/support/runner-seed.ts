// Seeding for the runner page specs, through the API with the signed-in administrator's session: users,
// groups, projects, memberships and runners; plus screenshots (RUNWAY_E2E_SCREENSHOTS=<dir>) at desktop
// width and at 390 px, and the axe check at both widths.
import { expect, type APIResponse, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe';
import { csrfToken, signIn, uniq } from './session';

export const PASSWORD = 'runner-pages-e2e-password-1';
export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const OWNER = 50;

export async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

export async function rootApi(page: Page) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>, status = 201) =>
    json<T>(await page.request.post(`/api/v4${path}`, { data, headers }), status);
  return {
    post,
    get: async <T = any>(path: string) => json<T>(await page.request.get(`/api/v4${path}`), 200),
    user: async (prefix: string) => {
      const username = uniq(prefix).replace(/-/g, '_');
      return post<{ id: number; username: string }>('/users', {
        username,
        name: `E2E ${prefix}`,
        email: `${username}@example.com`,
        password: PASSWORD,
        skip_confirmation: true,
      });
    },
    group: (prefix: string) => {
      const path = uniq(prefix);
      return post<{ id: number; full_path: string; name: string }>('/groups', { name: path, path, visibility: 'private' });
    },
    project: (prefix: string, namespaceId?: number) => {
      const path = uniq(prefix);
      return post<{ id: number; path_with_namespace: string; name: string }>('/projects', {
        name: path,
        path,
        namespace_id: namespaceId,
        visibility: 'private',
      });
    },
    member: (kind: 'groups' | 'projects', id: number, userId: number, level: number) =>
      post(`/${kind}/${id}/members`, { user_id: userId, access_level: level }),
    runner: (data: Record<string, unknown>) => post<{ id: number; token: string }>('/user/runners', data),
  };
}

export async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

/** axe at 1280 and 390 px (and screenshots of both when asked for), back at 1280 afterwards. */
export async function checkPage(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoSeriousA11yViolations(page, `${name} at ${width} px`);
    const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
