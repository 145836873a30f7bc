// Issuing anonymous answer credentials at login (decision 020, issue 28): one POST
// /api/v1/credentials/ asking for every open survey's credential, here 50, timed from the
// device's side with the blinding done beforehand (the device blinds off the main thread before
// it asks). Baseline in the same run: the same member's GET /api/v1/user/detail/. PostgreSQL,
// one API process, a fresh member each time (a member gets each credential once).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { users } from '../apps/api/src/db/schema';
import { seedSampleContent } from '../apps/api/src/db/seed/seed';
import { deriveKeys } from '../apps/api/src/lib/keys';
import { createTokenService } from '../apps/api/src/lib/tokens';
import { openSessions } from '../apps/api/src/test/sessions';
import { blindForTest } from '../apps/api/src/test/credentials';
import { createPostgresDatabase, median, startCandor } from './lib';

const SURVEYS = 50;
const MEMBERS = 25;
const WARM = 3;

async function prepare(databaseUrl: string, jwtSecret: string) {
  const database = await openDatabase({ databaseUrl, dataDir: null });
  try {
    await database.migrate();
    await seedSampleContent(database.db);
    await database.db.execute(sql`
      with s as (
        insert into surveys (slug, name, release_date, published_at)
        select 'bench-' || g, 'Bench survey ' || g, now() - interval '1 hour', now()
        from generate_series(1, ${SURVEYS}) g returning id)
      insert into questions (survey_id, position, type, text)
      select id, 1, 'Closed', 'A question?' from s`);
    await database.db.execute(sql`
      insert into users (phone_lookup, country, status, phone_verified_at)
      select 'bench:' || g, 'US', 'active', now()
      from generate_series(1, ${MEMBERS}) g`);
    const uuids = (await database.db.select({ uuid: users.uuid }).from(users)).map((u) => u.uuid);
    const tokens = createTokenService(deriveKeys({ jwtSecret }), { accessTtlSeconds: 3600 });
    const sids = await openSessions(database.db, uuids);
    return await Promise.all(
      uuids.map((sub, i) => tokens.signAccess({ sub, role: 'member', sid: sids[i]! })),
    );
  } finally {
    await database.close();
  }
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await fn();
  await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}`);
  return performance.now() - started;
}

export async function credentialIssuanceBench(): Promise<string> {
  const secret = crypto.randomBytes(32).toString('hex');
  const scratch = await createPostgresDatabase();
  try {
    const tokens = await prepare(scratch.url, secret);
    const server = await startCandor({
      DATABASE_URL: scratch.url,
      JWT_SECRET: secret,
      PSEUDONYM_SECRET: secret,
    });
    try {
      const list = (await (
        await fetch(`${server.url}/api/v1/surveys/open-closed-random-video-surveys?page_size=100`)
      ).json()) as { results: Array<{ gid: string; status: string }> };
      const open = list.results.filter((s) => s.status === 'Open').slice(0, SURVEYS);
      // The keys (made by the leader in the background, or here on first use).
      const keys = await Promise.all(
        open.map(async (s) => {
          const k = (await (
            await fetch(`${server.url}/api/v1/surveys/${s.gid}/credential-key/`)
          ).json()) as { public_key: string };
          return { gid: s.gid, spki: Buffer.from(k.public_key, 'base64url') };
        }),
      );
      const issue: number[] = [];
      const detail: number[] = [];
      for (const [i, token] of tokens.entries()) {
        const requests = await Promise.all(
          keys.map(async (k) => ({
            gid: k.gid,
            blinded_msg: (await blindForTest(k.spki)).blindedMsg.toString('base64url'),
          })),
        );
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const d = await timed(() => fetch(`${server.url}/api/v1/user/detail/`, { headers }));
        const t = await timed(() =>
          fetch(`${server.url}/api/v1/credentials/`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ requests }),
          }),
        );
        if (i >= WARM) {
          issue.push(t);
          detail.push(d);
        }
      }
      const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
      const fmt = (n: number) => n.toFixed(1);
      return [
        `${open.length} open surveys; ${issue.length} members timed after ${WARM} warm-up logins.`,
        '',
        '| request | median ms | p90 ms | ratio to the detail read |',
        '|---|---|---|---|',
        `| GET /api/v1/user/detail/ (baseline) | ${fmt(median(detail))} | ${fmt(p90(detail))} | 1.00 |`,
        `| POST /api/v1/credentials/, ${open.length} surveys | ${fmt(median(issue))} | ${fmt(p90(issue))} | ${(median(issue) / median(detail)).toFixed(1)} |`,
      ].join('\n');
    } finally {
      await server.stop();
    }
  } finally {
    await scratch.drop();
  }
}
