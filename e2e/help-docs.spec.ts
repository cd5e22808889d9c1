// [HELP] The documentation at /help/docs/<page>: docs/'s Markdown rendered by the server, reached from the Help
// menu; a link between pages leads to the page and section it names (below the sticky top bar), a file
// outside docs/ is named rather than linked, and on a phone a wide table scrolls sideways in its own region,
// by keyboard too, while the page does not.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { signIn } from './support/session';

const PHONE = { width: 390, height: 844 };

const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, clientWidth: document.scrollingElement!.clientWidth }));

test.describe('[HELP] documentation pages', () => {
  test('[HELP] the Help menu opens the index, whose links lead to the pages and sections they name', async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Documentation' }).click();
    await nav.getByRole('link', { name: 'Overview' }).click();
    await expect(page).toHaveURL(/\/help\/docs\/index$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: "Runway's documentation", level: 1 })).toBeVisible();
    // The README is not a page of the dashboard: named, not linked.
    await expect(main.getByText('README.md', { exact: true })).toBeVisible();
    await expect(main.getByRole('link', { name: 'README' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'the documentation index');

    await main.getByRole('link', { name: 'Configuration', exact: true }).click();
    await expect(page).toHaveURL(/\/help\/docs\/configuration$/);
    await expect(main.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
    await expect(main.getByRole('region', { name: 'Table: Settings' }).getByRole('columnheader', { name: 'description' })).toBeAttached();
    await expect(main.getByText('<!--')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'the configuration page');

    await main.getByRole('link', { name: 'Exposing Runway on a network' }).click();
    await expect(page).toHaveURL(/\/help\/docs\/install#exposing-runway-on-a-network$/);
    const section = main.getByRole('heading', { name: 'Exposing Runway on a network' });
    await expect(section).toBeInViewport();
    // Below the sticky top bar, not under it.
    expect((await section.boundingBox())!.y).toBeGreaterThanOrEqual(56);
    await screenshot(page, 'help-docs-install');
  });

  test('[HELP] on a phone the page never scrolls sideways; a wide table scrolls in its region, by keyboard too', async ({ page }) => {
    await signIn(page);
    await page.setViewportSize(PHONE);
    for (const slug of ['index', 'configuration', 'operations', 'performance']) {
      await page.goto(`/help/docs/${slug}`);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      const { scrollWidth, clientWidth } = await pageWidth(page);
      expect(scrollWidth, `${slug}: page width ${scrollWidth} > viewport ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
    }
    await page.goto('/help/docs/configuration#the-sign-in-lock');
    await expect(page.getByRole('heading', { name: 'The sign-in lock' })).toBeInViewport();
    const table = page.getByRole('region', { name: 'Table: Settings' });
    await table.focus();
    await expect(table).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page, 'the configuration page on a phone');
    await screenshot(page, 'help-docs-configuration');
  });
});
