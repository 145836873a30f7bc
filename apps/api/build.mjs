// Bundles the API into dist/server.js. Workspace packages (@candor/*) are bundled from source;
// npm packages stay external and load from node_modules. Migrations are copied beside it.
import fs from 'node:fs';
import { build } from 'esbuild';

const externalNpm = {
  name: 'external-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@candor/') ? undefined : { path: args.path, external: true },
    );
  },
};

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpm],
  logLevel: 'warning',
});
fs.cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
