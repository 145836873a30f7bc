// How erasures that come together share vacuum passes: never one pass each (a burst of erasures
// would queue a VACUUM per person), never none for an erasure that came during a pass.
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database, Db } from './client.js';
import { createErasureVacuum } from './erasure-vacuum.js';

const dialect = new PgDialect();

/** An `unbounded` recording its statements, which wait until released when `blocking`. */
function fakeDatabase(blocking = true) {
  const statements: string[] = [];
  let release: (() => void) | undefined;
  let started: (() => void) | undefined;
  const own = {
    execute: async (query: SQL) => {
      statements.push(dialect.sqlToQuery(query).sql);
      started?.();
      if (blocking) await new Promise<void>((r) => (release = r));
    },
  } as unknown as Db;
  const unbounded: Database['unbounded'] = (work) => work(own);
  return {
    database: { unbounded },
    statements,
    /** Resolves when the next statement starts. */
    nextStatement: () => new Promise<void>((r) => (started = r)),
    release: () => release?.(),
  };
}

describe('the vacuum after an erasure', () => {
  it('runs one pass now and exactly one more for any number of erasures during it', async () => {
    const fake = fakeDatabase();
    const vacuum = createErasureVacuum(fake.database, { followUpMs: 0 });
    const first = fake.nextStatement();
    vacuum.erased();
    await first;
    for (let i = 0; i < 10; i++) vacuum.erased(); // while the first pass runs
    // Every statement released as it comes, until no pass is left.
    const state = { settled: false };
    const done = vacuum.settled().then(() => (state.settled = true));
    while (!state.settled) {
      fake.release();
      await new Promise((r) => setImmediate(r));
    }
    await done;
    const passes = fake.statements.filter((s) => s.startsWith('vacuum (index_cleanup on)'));
    expect(passes).toHaveLength(2);
    expect(fake.statements[0]).toMatch(/^vacuum \(index_cleanup on\) "users", /);
    // Without the scrub, each pass rewrites the identity keys' small table (decision 026).
    expect(fake.statements.slice(1, 4)).toEqual([
      "set lock_timeout = '2000ms'",
      'vacuum full identity_keys',
      'set lock_timeout = 0',
    ]);
  });

  it('scrubs only when asked: rewrites the account tables, switches the log, checkpoints', async () => {
    const fake = fakeDatabase(false);
    const vacuum = createErasureVacuum(fake.database, { followUpMs: 0, scrub: true });
    vacuum.erased();
    await vacuum.settled();
    expect(fake.statements.slice(1)).toEqual([
      "set lock_timeout = '2000ms'",
      'vacuum full "users", "otp_challenges", "refresh_tokens", "identity_keys"',
      'set lock_timeout = 0',
      'select pg_switch_wal()',
      'checkpoint',
    ]);
  });
});
