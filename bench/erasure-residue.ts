/**
 * What an erasure leaves in the embedded PostgreSQL's data folder (issue 28): members sign up,
 * write an answer with the survey's credential (decision 020: no session; half of them mixed into
 * the answers, half still waiting in the inbox), withdraw it with that credential and erase their
 * account through the real API, as the device does on erasure; the folder is then copied, as a
 * thief or a backup would, at several moments, and every file is searched for their phone
 * numbers (E.164 with and without "+", the national digits; UTF-8, the database's encoding, and
 * UTF-16 for good measure), their names and their written answers.
 *
 *   npx tsx bench/erasure-residue.ts [members=5]
 *
 * Stages: right after the erasure's own vacuum (and, on this server Candor owns, its scrub); after a CHECKPOINT (dirty pages reach the table
 * files); after the write-ahead log is switched and checkpointed twice (old segments recycled or
 * removed); after VACUUM FULL of the tables that held them (their files rewritten).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdminSurveySchema } from '@candor/contracts';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { ERASURE_TABLES } from '../apps/api/src/db/erasure-vacuum';
import { createMember, freshPhone, json, post, signUp } from '../apps/api/src/test/accounts';
import { createTestApp } from '../apps/api/src/test/app';
import { memberDevice } from '../apps/api/src/test/credentials';

const MEMBERS = Number(process.argv[2] ?? 5);
const PASSWORD = 'erase me completely 4c1d';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-residue-'));
const pgDir = path.join(dataDir, 'postgres');
const database = await openDatabase({ dataDir, poolSize: 4 });
await database.migrate();
// Its own DATA_DIR for the file SMS outbox: only the database's folder is searched here.
const app = await createTestApp(database, { resultsRefreshSeconds: 0, contentCacheSeconds: 0 });
const exec = (q: ReturnType<typeof sql>) => database.db.execute(q);

const admin = await createMember(app, { role: 'admin' });
const staff = { token: admin.token };
const { gid } = AdminSurveySchema.parse(
  json(
    await post(
      app,
      '/api/v1/admin/surveys/',
      {
        name: 'Residue',
        author: 'Candor team',
        cover_headline: 'Residue',
        intro_screen_text: 'Honest answers.',
        outro_screen_text: 'Thanks.',
        variant: 'v1_large',
        release_date: new Date(Date.now() - 60_000).toISOString(),
      },
      staff,
    ),
  ),
);
const added = AdminSurveySchema.parse(
  json(
    await post(
      app,
      `/api/v1/admin/surveys/${gid}/questions/`,
      { type: 'Open', question: 'Anything to confess?', max_length: 500 },
      staff,
    ),
  ),
);
await post(app, `/api/v1/admin/surveys/${gid}/publish/`, {}, staff);
const qid = added.questions[0]!.qid;

interface Person {
  phone: string;
  name: string;
  text: string;
}
const people: Person[] = [];
for (let i = 0; i < MEMBERS; i++) {
  const phone = freshPhone();
  const name = `Residuename${i}q${Math.random().toString(36).slice(2, 7)}`;
  const text = `my residue confession ${i} ${Math.random().toString(36).slice(2, 10)}`;
  const { access } = await signUp(app, phone, { password: PASSWORD, extra: { name } });
  const device = memberDevice(app, {
    token: access,
    profile: { gender: 'female', age_band: '25-34', country: 'US' },
  });
  const res = await device.answer(qid, { text });
  if (res.statusCode !== 201) throw new Error(`answer: ${res.statusCode} ${res.body}`);
  if (i % 2 === 0) await app.credentials.mix(true);
  people.push({ phone, name, text });
  const withdrawn = await post(
    app,
    `/api/v1/surveys/${gid}/answers/withdrawal/`,
    {},
    { headers: { 'candor-credential': await device.credentialFor(gid) } },
  );
  if (withdrawn.statusCode !== 200) {
    throw new Error(`withdraw: ${withdrawn.statusCode} ${withdrawn.body}`);
  }
  const erased = await post(app, '/api/v1/user/delete/', { password: PASSWORD }, { token: access });
  if (erased.statusCode !== 204) throw new Error(`erase: ${erased.statusCode} ${erased.body}`);
}
// What waited for a withdrawn credential leaves the inbox at the next mix.
await app.credentials.mix(true);
await app.erasureVacuum.settled();

/** The byte strings searched for, by kind. */
function canaries(p: Person): Array<[string, Buffer]> {
  const forms: Array<[string, string]> = [
    ['phone', p.phone],
    ['phone', p.phone.slice(1)],
    ['phone', p.phone.slice(2)], // national digits (+1)
    ['name', p.name],
    ['text', p.text],
  ];
  return forms.flatMap(([kind, s]) => [
    [kind, Buffer.from(s, 'utf8')] as [string, Buffer],
    [kind, Buffer.from(s, 'utf16le')] as [string, Buffer],
  ]);
}

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Copies the live folder (as a thief would) and counts, per place, the people still found. */
function scan(stage: string) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-residue-copy-'));
  fs.cpSync(pgDir, copy, { recursive: true });
  const found = new Map<string, Set<string>>(); // "place kind" -> people
  const where = new Map<string, Set<string>>(); // kind -> files
  for (const file of files(copy)) {
    const bytes = fs.readFileSync(file);
    const rel = path.relative(copy, file);
    const place = rel.startsWith('pg_wal')
      ? 'pg_wal'
      : rel.startsWith('base')
        ? 'table files'
        : 'other';
    for (const [i, p] of people.entries()) {
      for (const [kind, needle] of canaries(p)) {
        if (!bytes.includes(needle)) continue;
        const key = `${place} ${kind}`;
        if (!found.has(key)) found.set(key, new Set());
        found.get(key)!.add(String(i));
        if (!where.has(kind)) where.set(kind, new Set());
        where.get(kind)!.add(rel);
      }
    }
  }
  fs.rmSync(copy, { recursive: true, force: true });
  const line = [...found]
    .sort()
    .map(([key, who]) => `${key} ${who.size}/${people.length}`)
    .join(', ');
  console.log(`${stage}: ${line || 'nothing found'}`);
  for (const [kind, rels] of where) console.log(`    ${kind}: ${[...rels].sort().join(' ')}`);
}

const walFiles = () =>
  fs.readdirSync(path.join(pgDir, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f));
const setting = async (name: string) =>
  (
    (await exec(sql`select current_setting(${name}) as v`)) as {
      rows: Array<{ v: string }>;
    }
  ).rows[0]!.v;
console.log(
  `${MEMBERS} members erased; wal_recycle=${await setting('wal_recycle')}, ` +
    `min_wal_size=${await setting('min_wal_size')}, checkpoint_timeout=${await setting('checkpoint_timeout')}`,
);
scan('1. after the erasure and its vacuum');
await exec(sql`checkpoint`);
scan('2. after a checkpoint');
for (let i = 0; i < 2; i++) {
  await exec(sql`select pg_switch_wal()`);
  await exec(sql`checkpoint`);
}
console.log(`    WAL segment files now: ${walFiles().length}`);
scan('3. after switching the WAL and two checkpoints');
const tables = sql.join(
  ERASURE_TABLES.map((t) => sql.identifier(t)),
  sql`, `,
);
await app.erasureVacuum.stop();
await database.unbounded((own) => own.execute(sql`vacuum full ${tables}`));
await exec(sql`checkpoint`);
scan('4. after VACUUM FULL of the erasure tables and a checkpoint');
for (let i = 0; i < 2; i++) {
  await exec(sql`select pg_switch_wal()`);
  await exec(sql`checkpoint`);
}
scan('5. and the WAL switched and checkpointed twice more');

await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
