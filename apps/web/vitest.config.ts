import { defineProject } from 'vitest/config';
import { reactAsPreact } from './preact';

export default defineProject({
  // ES module builds first (the browser's): a library's CommonJS build would require() React
  // itself, past the aliases.
  resolve: {
    alias: reactAsPreact.alias,
    conditions: ['module', 'browser', 'development|production'],
  },
  oxc: reactAsPreact.oxc,
  test: {
    name: 'web',
    root: './apps/web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Libraries run through the same aliases as our code, so every one of them renders with
    // Preact (as in the browser), not with a copy of React beside it.
    server: { deps: { inline: true } },
  },
});
