// [A11Y] Every dashboard page, and the states people meet on them, passes axe-core's WCAG A/AA rules with
// no serious or critical violation (desktop and phone width).
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { csrfToken, signIn, uniq } from './support/session';

const TOKENS_PAGE = '/-/user_settings/personal_access_tokens';

async function seedRunner(page: Page) {
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const res = await page.request.post('/api/v4/user/runners', {
    data: { runner_type: 'instance_type', description: uniq('a11y'), tag_list: 'docker,linux', maintenance_note: 'Checked' },
    headers,
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: number };
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`[A11Y] at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`[A11Y] the sign-in page, empty and with its errors (${viewport.width} px)`, async ({ page }) => {
      await page.goto('/sign-in');
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('Enter your password.')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'sign-in with missing fields');
    });

    test(`[A11Y] the tokens page and its form (${viewport.width} px)`, async ({ page }) => {
      await signIn(page);
      await page.goto(TOKENS_PAGE);
      await expect(page.getByRole('heading', { name: 'Personal access tokens' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'tokens page');
      await page.getByRole('button', { name: 'Add new token' }).click();
      const form = page.getByRole('form', { name: 'Add a personal access token' });
      await form.getByRole('button', { name: 'Create token' }).click();
      await expect(form.getByText('Enter a token name.')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'token form with errors');
    });

    test(`[A11Y] the runners list and its states (${viewport.width} px)`, async ({ page }) => {
      await signIn(page);
      await seedRunner(page);
      await page.goto('/admin/runners');
      await expect(page.getByRole('table', { name: 'Runners', exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runners list');
      await page.goto('/admin/runners?status[]=STALE&tag[]=a11y-none');
      await expect(page.getByText('No results found')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runners list with filters and no results');
      await page.goto('/admin/runners?page=9999');
      await expect(page.getByText('Page 9999 does not exist')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runners list past its last page');
    });

    test(`[A11Y] a runner's page and its edit form (${viewport.width} px)`, async ({ page }) => {
      await signIn(page);
      const runner = await seedRunner(page);
      await page.goto(`/admin/runners/${runner.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${runner.id}`);
      await expect(page.getByText('No jobs yet')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runner page');
      await page.getByRole('link', { name: 'Edit' }).click();
      await expect(page.getByRole('form', { name: 'Edit runner' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runner edit form');
    });
  });
}
