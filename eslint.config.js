import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The web app's features (apps/web/src/features/*); each imports none of the others. */
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'apps/api/src/db/migrations/**',
      'apps/web/public/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  // Every TypeScript file is linted with type information: typescript-eslint's strict and
  // stylistic type-checked rules (ENGINEERING.md: strict everywhere).
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        // The root's test configs belong to no workspace's tsconfig: checked with the base one.
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'vitest.soak.config.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // The house spelling: `T[]` for a simple type, `Array<...>` for objects, tuples and unions.
      '@typescript-eslint/array-type': [
        'error',
        { default: 'array-simple', readonly: 'array-simple' },
      ],
      'no-console': ['error', { allow: ['error', 'warn'] }],
      // With noUncheckedIndexedAccess, `!` after a checked index is the honest spelling.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers read naturally in messages ("3 answers"); other values still need a String().
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `onClick={() => set(x)}` returns nothing anyone reads.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `onSubmit={form.handleSubmit(...)}`: React ignores the promise, and the handler catches.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    // Here async is a contract: Fastify plugins and hooks, async interfaces met in sync, fakes.
    files: ['apps/api/**', 'bench/**', 'e2e/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Plain JavaScript (build scripts, this file) has no types to check.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Test doubles (fetch mocks, fake servers, jsdom gaps) are loosely typed on purpose.
    files: ['apps/web/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // The web app's import direction (bulletproof-react's zones): app -> features -> components, lib.
  // A feature never imports another feature or app/; components/ and lib/ never import a feature.
  // Features that need each other are composed in app/ (the admin preview gets the answering
  // screens as props); what several features share lives in components/ or lib/.
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${webFeatures.filter((f) => f !== feature).join('|')})(/|$)`,
              message:
                'Features do not import each other: compose them in app/, or move the shared part to components/ or lib/.',
            },
            {
              regex: '^(\\.\\./)+app(/|$)',
              message: 'Features do not import app/: app/ composes features.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(features|app)(/|$)',
              message: 'components/ and lib/ are shared: they never import a feature or app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Entry points and scripts talk to a person on the terminal.
    files: [
      'apps/api/src/server.ts',
      'apps/api/src/db/seed/cli.ts',
      'apps/api/src/cli/**',
      'bench/**',
      'scripts/**',
      'e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
