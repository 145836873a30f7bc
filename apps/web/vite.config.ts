import { defineConfig } from 'vite';
import { reactAsPreact } from './preact';

export default defineConfig({
  resolve: { alias: reactAsPreact.alias },
  oxc: reactAsPreact.oxc,
  build: {
    // Module-capable browsers down to the oldest ones the outdated-browser gate still has to reach
    // (Chrome 64, Firefox 67, Edge 79): they must run the bundle far enough to show the message.
    target: ['es2017', 'chrome64', 'firefox67', 'safari12', 'edge79'],
    sourcemap: true,
    // dist/.vite/manifest.json: which files each module needs. The server reads it to have a
    // page's scripts fetched with the page (apps/api/src/plugins/web-page.ts).
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page runs (Preact, the router, the query cache, the session store) in
              // one file rather than eight: fewer requests on a slow phone's few connections.
              name: 'framework',
              test: /node_modules[\\/](preact|react-router|@tanstack|zustand)[\\/]/,
            },
            {
              // The small shared parts of the shell the first page needs anyway (the API client,
              // the session's tokens, toasts, the contracts' zod-free rules) in one file, not
              // nine of 1-3 KB each: each file costs a request and its headers.
              name: 'shell',
              test: /(apps[\\/]web[\\/]src[\\/]lib[\\/](api-client|tokens|device-token|toasts|query-keys|local-answers|visitor-session|survey-storage)\.ts$)|(packages[\\/]contracts[\\/]src[\\/](auth-rules|constants)\.ts$)/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3001' },
  },
});
