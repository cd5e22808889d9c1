// The import rewrite: both spellings of a moved module follow it, a moved file's own relative imports are
// recomputed from its new folder, and a second run changes nothing.
import { describe, expect, it } from 'vitest';
import { rewriteSource } from './rewrite-imports.mjs';

const moves = new Map([
  ['lib/server/log.ts', 'lib/log/log.ts'],
  ['lib/auth/authenticate.ts', 'lib/api/authenticate.ts'],
]);
const files = new Set(['lib/api/errors.ts', 'lib/auth/secrets.ts', 'lib/log/log.ts', 'lib/api/authenticate.ts', 'package.json']);
const exists = (p: string) => files.has(p);

describe('rewriteSource', () => {
  it('rewrites @/ and relative imports of a moved module, keeping their spelling', () => {
    const text = [
      "import { log } from '@/lib/server/log';",
      "import { logError } from '../server/log';",
      "const lazy = () => import('../server/log');",
      "vi.mock('../server/log');",
      "import { other } from '../server/other';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(rewriteSource(text, 'lib/db/client.ts', 'lib/db/client.ts', moves, exists).split('\n')).toEqual([
      "import { log } from '@/lib/log/log';",
      "import { logError } from '../log/log';",
      "const lazy = () => import('../log/log');",
      "vi.mock('../log/log');",
      "import { other } from '../server/other';",
      "import { z } from 'zod';",
    ]);
  });

  it("recomputes a moved file's relative imports from its new folder", () => {
    const text = "import { ApiError } from '../api/errors';\nimport { digest } from './secrets';\nimport pkg from '../../package.json';";
    expect(rewriteSource(text, 'lib/auth/authenticate.ts', 'lib/api/authenticate.ts', moves, exists)).toBe(
      "import { ApiError } from './errors';\nimport { digest } from '../auth/secrets';\nimport pkg from '../../package.json';",
    );
  });

  it('is idempotent', () => {
    const once = rewriteSource("import { log } from '../server/log';", 'lib/db/client.ts', 'lib/db/client.ts', moves, exists);
    expect(rewriteSource(once, 'lib/db/client.ts', 'lib/db/client.ts', moves, exists)).toBe(once);
  });
});
