// ESLint (flat config): typescript-eslint's recommended rules, Next.js's and React Hooks' rules, and
// eslint-config-prettier last so formatting is Prettier's alone (`npm run lint` runs both).
import nextPlugin from '@next/eslint-plugin-next';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.next-*/**',
      'lib/db/generated/**',
      '.data/**',
      'dist/**',
      'bench/.data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      ...reactHooks.configs.recommended.rules,
      // Unused names are errors, except the `_`-prefixed ones kept for a signature's shape.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Entities build an object per row. `{ ...base(x), more }` (a fresh object spread first, then keys) is
    // V8's slow path on Node 20: 30-60x the cost of Object.assign(base(x), { more }), which keeps the same key
    // order (bench:api-profile, docs/performance.md "Where an API request's CPU goes").
    files: ['lib/**/entity.ts', 'lib/**/list-handlers.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression[properties.length>1] > SpreadElement:first-child[argument.type="CallExpression"]',
          message: "Write Object.assign(base(x), { ...keys }): a leading spread of a fresh object is V8's slow path (docs/performance.md).",
        },
      ],
    },
  },
  {
    // Off in the API and browser tests only: they read untyped JSON response bodies (res.body, page.request)
    // and the assertions on them are the check; typing every body would restate the API in the tests.
    files: ['tests/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
