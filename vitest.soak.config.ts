import { defineConfig } from 'vitest/config';

// The long part of the reliability suite (`npm run test:soak`): real server processes killed and
// restarted under load. Figures go to docs/reliability.md.
export default defineConfig({
  test: {
    name: 'soak',
    root: './apps/api',
    environment: 'node',
    include: ['src/**/*.soak.ts'],
    setupFiles: ['./src/test/setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
