import type { AliasOptions, UserConfig } from 'vite';

/**
 * The app is written against React's API and types; the browser runs Preact's React-compatible
 * renderer (decision 018: React DOM alone was 62 KB of the 100 KB first-visit budget). Every
 * import of React, from our code or a library's, resolves to `preact/compat`, and JSX compiles
 * straight to Preact's runtime. The build and the unit tests both use this, so what is tested is
 * what ships.
 */
export const reactAsPreact: { alias: AliasOptions; oxc: UserConfig['oxc'] } = {
  alias: [
    { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
    { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
    { find: /^react-dom$/, replacement: 'preact/compat' },
    { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
    { find: /^react$/, replacement: 'preact/compat' },
  ],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
};
