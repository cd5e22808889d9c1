// Helpers shared by the e2e specs: signing in through the real sign-in page.
import { expect, type APIResponse, type Page } from '@playwright/test';
import { ROOT_PASSWORD } from '../../tests/support/server';

export const ROOT = { username: 'root', password: ROOT_PASSWORD };

/** Signs in through the sign-in page; `open: false` uses the sign-in page already shown (with its callbackUrl). */
export async function signIn(page: Page, login = ROOT.username, password = ROOT.password, username = login, open = true) {
  if (open) await page.goto('/sign-in');
  await page.getByLabel('Username or primary email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('current-user')).toContainText(`@${username}`);
}

/** The session's CSRF token, as the dashboard layout publishes it. */
export async function csrfToken(page: Page): Promise<string> {
  const value = await page.locator('meta[name="csrf-token"]').getAttribute('content');
  if (!value) throw new Error('no csrf-token meta tag on the page');
  return value;
}

export const uniq = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A response's JSON body after checking its status (the body is the failure message otherwise). */
export async function jsonOf<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}
