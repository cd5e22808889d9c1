// The skipped-tests listing of `npm test`, from reports in vitest's and Playwright's JSON shapes.
import { describe, expect, it } from 'vitest';
import { formatSkips, skippedByFile } from './test-skips.mjs';

const vitest = {
  testResults: [
    {
      name: '/repo/tests/api/two.test.ts',
      assertionResults: [
        { status: 'skipped', meta: { skipReason: 'needs a PostgreSQL server (DATABASE_URL): two instances' } },
        { status: 'skipped', meta: { skipReason: 'needs a PostgreSQL server (DATABASE_URL): two instances' } },
        { status: 'passed', meta: {} },
      ],
    },
    {
      name: '/repo/lib/a.test.ts',
      assertionResults: [
        { status: 'todo', meta: {} },
        { status: 'failed', meta: {} },
      ],
    },
    { name: '/repo/lib/b.test.ts', assertionResults: [{ status: 'passed', meta: {} }] },
    { name: '/repo/tests/api/hook.test.ts', status: 'failed', assertionResults: [{ status: 'skipped', meta: {} }] },
  ],
};
const playwright = {
  suites: [
    {
      suites: [
        {
          specs: [
            {
              file: 'live.spec.ts',
              tests: [{ status: 'skipped', annotations: [], results: [{ annotations: [{ type: 'skip', description: 'needs a second instance' }] }] }],
            },
            { file: 'ok.spec.ts', tests: [{ status: 'expected', annotations: [], results: [] }] },
          ],
        },
      ],
    },
  ],
};

describe('[PLATFORM] npm test: skipped tests by file', () => {
  it('lists each file that skipped tests once, with its count and reasons, sorted; no reason says so', () => {
    expect(formatSkips(skippedByFile({ root: '/repo', vitest, playwright }))).toEqual([
      'Skipped tests, by file:',
      '  - e2e/live.spec.ts (1): needs a second instance',
      '  - lib/a.test.ts (1): no reason given',
      '  - tests/api/hook.test.ts (1): not run: a hook of the file failed',
      '  - tests/api/two.test.ts (2): needs a PostgreSQL server (DATABASE_URL): two instances',
    ]);
  });

  it('prints nothing when nothing was skipped or a report is missing', () => {
    expect(formatSkips(skippedByFile({ root: '/repo', vitest: undefined, playwright: undefined }))).toEqual([]);
  });
});
