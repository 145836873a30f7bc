// Throughput of the two survey read endpoints on PGlite and on PostgreSQL, beside a bare Fastify
// route sending the same bytes. autocannon, 50 connections, median of 3 runs of 8 s.
import crypto from 'node:crypto';
import { loadMedian, startBare, startCandor, withPostgresDatabase } from './lib';

const LIST = '/api/v1/surveys/open-closed-random-video-surveys';

async function measure(label: string, url: string) {
  const listId = (
    (await (await fetch(`${url}${LIST}`)).json()) as { results: Array<{ gid: string }> }
  ).results[0]!.gid;
  const list = await loadMedian(`${url}${LIST}`);
  const detail = await loadMedian(`${url}/api/v1/surveys/${listId}/video-survey`);
  return { label, list, detail, url, listId };
}

export async function readApiBench() {
  const rows: Array<Awaited<ReturnType<typeof measure>>> = [];
  const pglite = await startCandor({ EMBEDDED_DATABASE: 'pglite' });
  try {
    rows.push(await measure('Candor on PGlite', pglite.url));
  } finally {
    await pglite.stop();
  }
  await withPostgresDatabase(async (databaseUrl) => {
    const secret = crypto.randomBytes(32).toString('hex');
    const server = await startCandor({
      DATABASE_URL: databaseUrl,
      JWT_SECRET: secret,
      PSEUDONYM_SECRET: secret,
    });
    try {
      rows.push(await measure('Candor on PostgreSQL', server.url));
      // Baselines: bare Fastify sending the very bytes of each endpoint.
      for (const [name, pathname] of [
        ['list', LIST],
        ['detail', `/api/v1/surveys/${rows[1]!.listId}/video-survey`],
      ] as const) {
        const bare = await startBare(`${server.url}${pathname}`);
        try {
          const r = await loadMedian(`${bare.url}/bare`);
          const row = rows.find((x) => x.label === 'bare Fastify, same bytes') ?? {
            label: 'bare Fastify, same bytes',
            list: r,
            detail: r,
            url: '',
            listId: '',
          };
          row[name] = r;
          if (!rows.includes(row)) rows.push(row);
        } finally {
          await bare.stop();
        }
      }
    } finally {
      await server.stop();
    }
  });
  const bare = rows.find((r) => r.label.startsWith('bare'))!;
  const fmt = (
    r: { rps: number; p50: number; p99: number; errors: number },
    base: { rps: number },
  ) =>
    `${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / base.rps).toFixed(2)} | ${r.errors}`;
  return [
    '| target | list req/s | p50 ms | p99 ms | ratio | errors | detail req/s | p50 ms | p99 ms | ratio | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.label} | ${fmt(r.list, bare.list)} | ${fmt(r.detail, bare.detail)} |`,
    ),
  ].join('\n');
}
