import { defineConfig } from 'vitest/config';

// Unit and API integration tests. End-to-end tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          root: './apps/api',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          setupFiles: ['./src/test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
