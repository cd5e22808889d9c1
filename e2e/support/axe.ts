// Accessibility and screenshots for the e2e specs: axe finds no serious or critical violation; with
// RUNWAY_E2E_SCREENSHOTS=<dir>, pages are saved at desktop width and at 390 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAccessible(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}
