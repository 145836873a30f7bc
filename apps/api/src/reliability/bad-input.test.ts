import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/client.js';
import { seedSampleContent } from '../db/seed/seed.js';
import { createMember } from '../test/accounts.js';
import { createTestApp } from '../test/app.js';
import { closeAll, createTestDatabase } from '../test/database.js';
import { type ApiRoute, apiRoutes } from '../test/openapi.js';

// Every route of the API, fed what an attacker or a broken client sends: malformed JSON, wrong
// types, huge strings and numbers, odd unicode, injection strings, prototype keys, oversized
// bodies. Nothing may answer 5xx; every 4xx must say what is wrong in the API's error shape; and a
// refused request must not have written anything (no transaction took an id).

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff x',
  '\u202eevil\u202c',
  '\u200b\u200c\u200d\ufeff',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '%00',
  'null',
  'NaN',
  '1e309',
  '-0',
  '99999999999999999999999999',
  '+15555550100',
];

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constant('x'.repeat(70_000)),
);
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, 2 ** 31),
  fc.double(),
  fc.integer(),
);
const field = fc.constantFrom(
  'phone_number',
  'password',
  'otp',
  'refresh',
  'password_token',
  'choice',
  'text',
  'score',
  'name',
  'question',
  'choices',
  'type',
  'release_date',
  'genres',
  'qids',
  'gids',
  'role',
  'genre_name',
  'year_of_birth',
  'country',
  'gender',
  'path',
  '__proto__',
  'constructor',
);
const nastyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(field, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A request body as raw text: broken JSON, JSON of any shape, or a poisoned object. */
const body = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', 'not json', '{"a":1}}', '\u0000', '', 'null', '"x"'),
  nastyValue.map((v) => JSON.stringify(v)),
  fc
    .dictionary(field, nastyValue, { maxKeys: 6 })
    .map((o) => JSON.stringify(o).replace(/^\{/, '{"__proto__":{"role":"admin","isAdmin":true},')),
  fc.constant(JSON.stringify({ text: 'y'.repeat(80_000) })),
);

/** A path segment: an id of the right shape that names nothing, or anything at all. */
const segment = fc.oneof(
  fc.uuid().map(String),
  nastyString.filter((s) => s.length < 300),
  fc.constantFrom('1', '-1', '999999999999', '0x10', '1.5'),
);

describe('bad input to every route', () => {
  let database: Database;
  let app: App;
  let routes: ApiRoute[];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await seedSampleContent(database.db);
    app = await createTestApp(database, { resultsRefreshSeconds: 0, analytics: false });
    tokens.member = (await createMember(app)).token;
    tokens.admin = (await createMember(app, { role: 'admin' })).token;
    routes = apiRoutes(app);
  });

  afterAll(async () => {
    await closeAll(app, database);
  });

  /** The next transaction id: it moves when, and only when, some transaction wrote. */
  async function nextXid(): Promise<string> {
    const result = await database.db.execute(
      sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`,
    );
    // Both drivers answer `{rows}` (the Db type is their union).
    return (result as { rows: Array<{ xmax: string }> }).rows[0]!.xmax;
  }

  it('sees a write when there is one (the detector below can fail)', async () => {
    const before = await nextXid();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/genres/',
      headers: { authorization: `Bearer ${tokens.admin}` },
      payload: { genre_name: 'Detector' },
    });
    expect(res.statusCode).toBe(201);
    expect(await nextXid()).not.toBe(before);
  });

  it('answers no 5xx, says what is wrong, and writes nothing when it refuses', async () => {
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.array(segment, { minLength: 3, maxLength: 3 }),
          fc.constantFrom('member', 'admin', 'none'),
          fc.dictionary(
            fc.constantFrom('page', 'page_size', 'phone', 'status', 'days'),
            nastyString,
            {
              maxKeys: 2,
            },
          ),
          async (payload, ids, who, query) => {
            let i = 0;
            const path = route.pattern.replace(/\{[^}]+\}/g, () => encodeURIComponent(ids[i++]!));
            const search = new URLSearchParams(query).toString();
            const before = await nextXid();
            const res = await app.inject({
              method: route.method,
              url: search ? `${path}?${search}` : path,
              headers: {
                'content-type': 'application/json',
                ...(who === 'none' ? {} : { authorization: `Bearer ${tokens[who]}` }),
              },
              ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload }),
            });
            sent++;
            const where = `${route.method} ${path} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
            if (res.statusCode >= 500) failures.push(where);
            if (res.statusCode < 400) return;
            if (!sayswhat(res.body)) failures.push(`unclear: ${where}`);
            if ((await nextXid()) !== before) failures.push(`wrote on a refusal: ${where}`);
          },
        ),
        { numRuns: 25, seed: 20261122 },
      );
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
  });
});

/** An error body of the API's shape: `{detail, code}`, or field errors with a message each. */
function sayswhat(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (!parsed || typeof parsed !== 'object') return false;
  const b = parsed as Record<string, unknown>;
  if (typeof b.detail === 'string' && typeof b.code === 'string') return b.detail.length > 0;
  const messages = Object.values(b);
  return (
    messages.length > 0 &&
    messages.every(
      (m) => Array.isArray(m) && m.length > 0 && m.every((s) => typeof s === 'string' && s.length),
    )
  );
}
