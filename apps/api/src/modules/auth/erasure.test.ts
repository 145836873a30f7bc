/**
 * Erasure read back as a thief with the database files would (issue 28): `pageinspect` lists
 * every row version still in a table's pages, dead ones included. Before the immediate vacuum,
 * an erased member's users row (their phone number and name) and their written answer stayed
 * readable as dead rows until autovacuum came, which on a large table may be never.
 *
 * On PostgreSQL (TEST_DATABASE_URL) and on the embedded PostgreSQL the app ships; PGlite is
 * left out (its pageinspect is a separate bundle the app does not load). Autovacuum is off for
 * the tables here, so only the app's own vacuum can clear them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdminSurveySchema } from '@candor/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { type Database, openDatabase } from '../../db/client.js';
import { ERASURE_TABLES } from '../../db/erasure-vacuum.js';
import { users } from '../../db/schema.js';
import { createMember, freshIp, freshPhone, json, post, signUp } from '../../test/accounts.js';
import { createTestApp } from '../../test/app.js';
import { memberDevice } from '../../test/credentials.js';
import { closeAll, createTestDatabase, engines } from '../../test/database.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const PASSWORD = 'erase me completely 4c1d';

/** The servers with pageinspect: the machine's PostgreSQL when set, and the embedded one. */
const targets = [...(engines.includes('postgres') ? ['postgres'] : []), 'embedded'] as const;

describe.each(targets)('erasure leaves no readable row version on %s', (target) => {
  let database: Database;
  let app: App;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (target === 'embedded') {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-erasure-'));
      database = await openDatabase({ dataDir, poolSize: 4, embedded: 'postgres' });
      await database.migrate();
    } else {
      database = await createTestDatabase('postgres');
    }
    await database.db.execute(sql`create extension if not exists pageinspect`);
    for (const table of ERASURE_TABLES) {
      await database.db.execute(
        sql`alter table ${sql.identifier(table)} set (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
      );
    }
    app = await createTestApp(database, { resultsRefreshSeconds: 0, contentCacheSeconds: 0 });
  }, 120_000);

  afterAll(async () => {
    await closeAll(app, database);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every tuple's bytes (live and dead) in `table`'s pages, as pageinspect reads them. */
  async function tuplesOf(table: string): Promise<Buffer[]> {
    const rows = await database.db.execute(sql`
      select i.t_data
      from generate_series(0, pg_relation_size(${table}::regclass) / current_setting('block_size')::int - 1) b,
           lateral heap_page_items(get_raw_page(${table}, b::int)) i
      where i.t_data is not null`);
    return rowsOf<{ t_data: Buffer | Uint8Array | string }>(rows).map((r) =>
      typeof r.t_data === 'string'
        ? Buffer.from(r.t_data.replace(/^\\x/, ''), 'hex')
        : Buffer.from(r.t_data),
    );
  }

  const holding = (tuples: Buffer[], canary: string) =>
    tuples.filter((t) => t.includes(Buffer.from(canary, 'utf8'))).length;

  /** A published survey with one open question: its gid and the question's qid. */
  async function openQuestion(): Promise<{ gid: string; qid: string }> {
    const admin = await createMember(app, { role: 'admin' });
    const staff = { token: admin.token };
    const created = await post(
      app,
      '/api/v1/admin/surveys/',
      {
        name: 'Erased',
        author: 'Candor team',
        cover_headline: 'Erasure',
        intro_screen_text: 'Honest answers.',
        outro_screen_text: 'Thanks.',
        variant: 'v1_large',
        release_date: new Date(Date.now() - 60_000).toISOString(),
      },
      staff,
    );
    const { gid } = AdminSurveySchema.parse(json(created));
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
    return { gid, qid: added.questions[0]!.qid };
  }

  /**
   * A member's answer with the survey's credential (no session), mixed so it is stored; and,
   * before the erasure, the withdrawal the member's device sends with that credential (an
   * erasure alone cannot find an answer no account names).
   */
  async function answerAs(access: string, qid: string, text: string) {
    const device = memberDevice(app, {
      token: access,
      profile: { gender: 'female', age_band: '25-34', country: 'US' },
    });
    const answered = await device.answer(qid, { text });
    expect(answered.statusCode, answered.body).toBe(201);
    return device;
  }

  it('vacuums at once: several members erased together leave no tuple with their number, name or text', async () => {
    const { gid, qid } = await openQuestion();
    const people = [];
    for (let i = 0; i < 3; i++) {
      const phone = freshPhone();
      const name = `Canaryname${i}x${Math.random().toString(36).slice(2, 8)}`;
      const text = `my unmistakable confession number ${i} ${Math.random().toString(36).slice(2)}`;
      const { access } = await signUp(app, phone, {
        password: PASSWORD,
        ip: freshIp(),
        extra: { name },
      });
      const device = await answerAs(access, qid, text);
      people.push({ phone, name, text, access, device });
    }
    await app.credentials.mix(true);
    // The pages hold their rows and texts before (else the check below would prove nothing),
    // but never a number or name in the clear: those are sealed under each account's own key.
    const backup = await sealedRows(people.map((p) => p.phone));
    const usersBefore = await tuplesOf('users');
    const answersBefore = await tuplesOf('answers');
    for (const [i, p] of people.entries()) {
      expect(holding(usersBefore, backup[i]!.identity!)).toBeGreaterThan(0);
      expect(holding(answersBefore, p.text)).toBeGreaterThan(0);
      expect(holding(usersBefore, p.phone)).toBe(0);
      expect(holding(usersBefore, p.name)).toBe(0);
    }
    // With the keys, the copy opens (the check below would prove nothing otherwise).
    expect((await app.identities.open(backup)).map((r) => [r.phoneE164, r.name])).toEqual(
      people.map((p) => [p.phone, p.name]),
    );

    // Each device withdraws its answers, then the accounts are erased together, as several
    // people might at the same moment.
    for (const p of people) expect((await p.device.withdraw(gid)).statusCode).toBe(200);
    const replies = await Promise.all(
      people.map((p) =>
        post(app, '/api/v1/user/delete/', { password: PASSWORD }, { token: p.access }),
      ),
    );
    for (const r of replies) expect(r.statusCode, r.body).toBe(204);
    await app.erasureVacuum.settled();

    const tables = Object.fromEntries(
      await Promise.all(ERASURE_TABLES.map(async (t) => [t, await tuplesOf(t)] as const)),
    );
    for (const [i, p] of people.entries()) {
      for (const [table, tuples] of Object.entries(tables)) {
        expect(holding(tuples, p.phone), `${table}: phone`).toBe(0);
        expect(holding(tuples, p.name), `${table}: name`).toBe(0);
        expect(holding(tuples, p.text), `${table}: text`).toBe(0);
        expect(holding(tuples, backup[i]!.identity!), `${table}: sealed identity`).toBe(0);
      }
    }
    // Crypto-shredding: the rows copied before the erasure (a backup, the archived log) open to
    // nothing now, with every secret the server has: each key was destroyed with its account.
    expect(await app.identities.store.get(backup.map((r) => r.uuid))).toEqual(new Map());
    expect((await app.identities.open(backup)).map((r) => [r.phoneE164, r.name])).toEqual(
      people.map(() => ['', '']),
    );
  }, 120_000);

  /** The users rows of these numbers as stored (what a backup copies). */
  async function sealedRows(phones: string[]) {
    const rows = [];
    for (const phone of phones) {
      const [row] = await database.db
        .select()
        .from(users)
        .where(eq(users.phoneLookup, app.identities.lookup(phone)));
      rows.push(row!);
    }
    return rows;
  }

  /** Every file of the data folder's PostgreSQL, read from a copy as a thief would take it. */
  function copiedFiles(): Array<{ rel: string; bytes: Buffer }> {
    const source = path.join(dataDir!, 'postgres');
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'candor-erasure-copy-'));
    try {
      fs.cpSync(source, copy, { recursive: true });
      return fs
        .readdirSync(copy, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => {
          const full = path.join(e.parentPath, e.name);
          return { rel: path.relative(copy, full), bytes: fs.readFileSync(full) };
        });
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }

  /** The numbers as the database stores them (E.164, UTF-8) and as one might search them. */
  const numberForms = (phone: string) => [phone, phone.slice(1), phone.slice(2)];
  const filesHolding = (files: Array<{ rel: string; bytes: Buffer }>, canary: string) =>
    files.filter((f) => f.bytes.includes(Buffer.from(canary, 'utf8'))).map((f) => f.rel);

  it.runIf(target === 'embedded')(
    'scrubs its own server: a copy of the data folder holds no erased number or name, in table files or the write-ahead log',
    async () => {
      const { gid, qid } = await openQuestion();
      const people = [];
      for (let i = 0; i < 3; i++) {
        const phone = freshPhone();
        const name = `Scrubname${i}x${Math.random().toString(36).slice(2, 8)}`;
        const text = `my scrubbed confession ${i} ${Math.random().toString(36).slice(2)}`;
        const { access } = await signUp(app, phone, { password: PASSWORD, extra: { name } });
        const device = await answerAs(access, qid, text);
        people.push({ phone, name, text, access, device });
      }
      await app.credentials.mix(true);
      // The folder holds their sealed rows before, never a number or name in the clear.
      const backup = await sealedRows(people.map((p) => p.phone));
      const before = copiedFiles();
      for (const [i, p] of people.entries()) {
        expect(filesHolding(before, backup[i]!.identity!).length).toBeGreaterThan(0);
        for (const form of numberForms(p.phone)) expect(filesHolding(before, form)).toEqual([]);
        expect(filesHolding(before, p.name)).toEqual([]);
      }

      for (const p of people) expect((await p.device.withdraw(gid)).statusCode).toBe(200);
      const replies = await Promise.all(
        people.map((p) =>
          post(app, '/api/v1/user/delete/', { password: PASSWORD }, { token: p.access }),
        ),
      );
      for (const r of replies) expect(r.statusCode, r.body).toBe(204);
      await app.erasureVacuum.settled();

      const after = copiedFiles();
      for (const [i, p] of people.entries()) {
        expect(filesHolding(after, backup[i]!.identity!)).toEqual([]);
        for (const form of numberForms(p.phone)) expect(filesHolding(after, form)).toEqual([]);
        expect(filesHolding(after, p.name)).toEqual([]);
        expect(filesHolding(after, p.text)).toEqual([]);
      }
    },
    120_000,
  );
});
