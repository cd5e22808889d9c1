// [HELP] The API reference at /help/api: the OpenAPI document rendered by openapi-explorer inside the
// dashboard's layout, reachable from the navigation, with the document's operations and extensions.
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { signIn } from './support/session';

test.describe('[HELP] API reference', () => {
  test('[HELP] the navigation leads to /help/api, which lists the runner endpoints from openapi.json', async ({ page }) => {
    await signIn(page);
    const spec = page.waitForResponse((r) => r.url().endsWith('/api/v4/openapi.json') && r.status() === 200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API reference' }).click();
    await expect(page).toHaveURL(/\/help\/api$/);
    await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
    const doc = await (await spec).json();
    expect(doc.openapi).toBe('3.1.0');
    // The viewer renders the document's operations (its shadow DOM is open, so locators reach it).
    const explorer = page.locator('openapi-explorer');
    await expect(explorer.getByText('List all runners (admin)').first()).toBeVisible({ timeout: 30_000 });
    await expect(explorer.getByText("List runners a project's maintainer may assign to it (Runway extension)").first()).toBeAttached();
    await expect(page.getByRole('link', { name: 'openapi.json' })).toHaveAttribute('href', '/api/v4/openapi.json');
    await expectNoSeriousA11yViolations(page, 'the API reference page');
    await screenshot(page, 'help-api');
  });
});
