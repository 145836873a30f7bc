import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWERED_TABLE, LOCAL_DB_NAME, answeredOnDevice } from '../../../lib/device-answers';
import { openLocalDb } from './local-db';

const MEMBER = '11111111-1111-4111-8111-111111111111';
const VISITOR = 'visitor:abc';

const databases = async () => (await indexedDB.databases()).map((d) => d.name);

afterEach(async () => {
  await new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(LOCAL_DB_NAME);
    req.onsuccess = req.onerror = req.onblocked = resolve;
  });
});

// The home page reads this table without Dexie (lib/device-answers.ts): what it reads must be
// what this feature writes, and reading must never get in this feature's way.
describe('what the home page reads of this device', () => {
  it('reads the answering feature’s own table, for one owner, by survey', async () => {
    // Written as the answering feature writes it (Dexie, its schema).
    const db = openLocalDb();
    const row = { date: '2026-11-27', answer: 'Yes', isBlank: false };
    await db.answeredQuestions.bulkAdd([
      { ...row, qid: 'q1', gid: 'g1', owner: MEMBER },
      { ...row, qid: 'q2', gid: 'g1', owner: MEMBER },
      { ...row, qid: 'q3', gid: 'g2', owner: MEMBER },
      { ...row, qid: 'q4', gid: 'g2', owner: VISITOR },
    ]);
    db.close();

    const member = await answeredOnDevice(MEMBER);
    expect([...member.entries()].map(([gid, qids]) => [gid, [...qids].sort()])).toEqual([
      ['g1', ['q1', 'q2']],
      ['g2', ['q3']],
    ]);
    // Another person on the same device (a tab's visitor session) sees only their own.
    expect([...(await answeredOnDevice(VISITOR)).get('g2')!]).toEqual(['q4']);
    expect((await answeredOnDevice('visitor:other')).size).toBe(0);
  });

  it('reads nothing for nobody, and never makes a database of its own', async () => {
    expect((await answeredOnDevice(null)).size).toBe(0);
    expect((await answeredOnDevice(MEMBER)).size).toBe(0);
    expect(await databases()).not.toContain(LOCAL_DB_NAME);
  });

  it('creates nothing where the browser cannot list its databases either', async () => {
    const list = indexedDB.databases.bind(indexedDB);
    Object.defineProperty(indexedDB, 'databases', { value: undefined, configurable: true });
    try {
      expect((await answeredOnDevice(MEMBER)).size).toBe(0);
    } finally {
      Object.defineProperty(indexedDB, 'databases', { value: list, configurable: true });
    }
    expect(await databases()).not.toContain(LOCAL_DB_NAME);
  });

  it('leaves the database to the answering feature: it opens and upgrades it afterwards', async () => {
    await answeredOnDevice(MEMBER);
    const db = openLocalDb();
    await db.answeredQuestions.add({
      qid: 'q1',
      gid: 'g1',
      owner: MEMBER,
      date: '2026-11-27',
      answer: '',
      isBlank: true,
    });
    expect(db.tables.map((t) => t.name)).toContain(ANSWERED_TABLE);
    db.close();
    expect([...(await answeredOnDevice(MEMBER)).keys()]).toEqual(['g1']);
  });
});
