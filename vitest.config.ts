import { defineConfig } from 'vitest/config';

/**
 * API tests that start processes of their own (servers, clusters, PostgreSQL, the CLI) or time
 * what they watch: they run alone, one file at a time, after everything else, so no other test
 * competes with them for the machine's two cores.
 */
const processTests = [
  'src/reliability/**/*.test.ts',
  'src/server.test.ts',
  'src/cli/**/*.test.ts',
  'src/db/embedded-postgres.test.ts',
  'src/db/lock.test.ts',
];

const api = {
  root: './apps/api',
  environment: 'node',
  setupFiles: ['./src/test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

// Unit and API integration tests. End-to-end tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    // Two files at a time (vitest's default on two cores is one): most API files wait on a
    // database as much as they compute.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...api,
          name: 'api',
          include: ['src/**/*.test.ts'],
          exclude: processTests,
          // Beside another file, a PGlite attack of hundreds of answers takes over 30 s (about
          // 17 s alone); a test that hangs still fails.
          testTimeout: 90_000,
        },
      },
      {
        test: {
          ...api,
          name: 'api-processes',
          include: processTests,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          environment: 'node',
          include: ['src/**/*.test.ts'],
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
