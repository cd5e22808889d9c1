// The accessibility check every page gets: axe-core's WCAG 2.x A/AA rules on the page as it stands, failing
// on any serious or critical violation with the rule, its help text and the offending elements.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const BLOCKING = new Set(['serious', 'critical']);

export async function expectNoSeriousA11yViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations
    .filter((v) => v.impact && BLOCKING.has(v.impact))
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes)\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`).join('\n')}`);
  expect(blocking, `accessibility of ${what}`).toEqual([]);
}
