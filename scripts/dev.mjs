// `npm run dev`: the API with reload on :3001 and Vite with hot reload on :5173 (proxying /api).
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'apps/api/src/server.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: process.env.API_PORT ?? '3001',
      WEB_DIST_DIR: 'none',
      DEMO_ADMIN: process.env.DEMO_ADMIN ?? 'true',
      // Development data: made-up answers so graphs show past the 10-person privacy threshold.
      SEED_SAMPLE_ANSWERS: process.env.SEED_SAMPLE_ANSWERS ?? 'true',
    },
  }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 143 && stop());
