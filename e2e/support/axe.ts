// The accessibility check every page gets: axe-core's WCAG 2.x A/AA rules on the page as it stands (or one
// part of it), failing on any serious or critical violation with the rule, its help text and the offending
// elements. With RUNWAY_E2E_SCREENSHOTS=<dir>, `screenshot` saves pages at desktop width and at 390 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const BLOCKING = new Set(['serious', 'critical']);

async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact && BLOCKING.has(v.impact))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes)\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`).join('\n')}`,
    );
}

/**
 * Fails on a violation that is still there half a second after it was first seen. A page caught between two
 * renders (a refetch replacing a row, a layout change after a resize) is checked again rather than failing the
 * run; what was seen the first time is printed, so a transient state stays visible in the log.
 */
export async function expectNoSeriousA11yViolations(page: Page, what: string, include?: string) {
  const first = await seriousViolations(page, include);
  if (first.length === 0) return;
  await page.waitForTimeout(500);
  const blocking = await seriousViolations(page, include);
  if (blocking.length === 0) console.warn(`accessibility of ${what}: seen once, gone half a second later:\n${first.join('\n')}`);
  expect(blocking, `accessibility of ${what}`).toEqual([]);
}

/** The same check, named by the page's URL (the merge request specs' form). */
export const expectAccessible = (page: Page, include?: string) => expectNoSeriousA11yViolations(page, page.url(), include);

export async function screenshot(page: Page, name: string) {
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}
