/**
 * Which questions the person on this device answered, read straight from the answering
 * feature's IndexedDB table (`features/answering/lib/local-db.ts`), never from the API
 * (decision 020: the server must not learn which surveys an account answered). Plain IndexedDB,
 * no Dexie: the home page reads it on a first visit, within the JavaScript budget
 * (docs/performance.md), and a browser that never answered gets no database made for it.
 */

/** The app's database and its table of answered questions (the spec's local table). */
export const LOCAL_DB_NAME = 'candor';
export const ANSWERED_TABLE = 'answeredQuestions';

/** The database if it exists, else null: it is never created (nor upgraded) here. */
async function openExisting(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return null;
  // Where the browser can list its databases, a missing one is not even asked for.
  if (typeof indexedDB.databases === 'function') {
    const names = await indexedDB.databases().then(
      (all) => all.map((d) => d.name),
      () => null,
    );
    if (names && !names.includes(LOCAL_DB_NAME)) return null;
  }
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(LOCAL_DB_NAME);
    } catch {
      resolve(null);
      return;
    }
    // Not there after all: creating it here would leave an empty version 1 behind for the
    // answering feature to meet. Aborting the upgrade creates nothing.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onsuccess = () => {
      const db = request.result;
      // The answering feature may upgrade it while this is open: let it.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = (event) => {
      event.preventDefault();
      resolve(null);
    };
  });
}

interface AnsweredRow {
  qid: string;
  gid: string;
  owner: string;
}

/**
 * The qids `owner` answered on this device, by survey gid (empty when nothing is kept or the
 * browser refuses its storage). `owner` is a member's uuid or a tab's `visitor:<id>`, as the
 * answering feature files answers; null (a visitor who never answered here) reads nothing.
 */
export async function answeredOnDevice(owner: string | null): Promise<Map<string, Set<string>>> {
  const bySurvey = new Map<string, Set<string>>();
  if (!owner) return bySurvey;
  const db = await openExisting().catch(() => null);
  if (!db) return bySurvey;
  try {
    if (!db.objectStoreNames.contains(ANSWERED_TABLE)) return bySurvey;
    const rows = await new Promise<AnsweredRow[]>((resolve, reject) => {
      const request = db
        .transaction(ANSWERED_TABLE, 'readonly')
        .objectStore(ANSWERED_TABLE)
        .getAll();
      request.onsuccess = () => resolve(request.result as AnsweredRow[]);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
    });
    for (const row of rows) {
      if (row.owner !== owner) continue;
      let qids = bySurvey.get(row.gid);
      if (!qids) bySurvey.set(row.gid, (qids = new Set()));
      qids.add(row.qid);
    }
    return bySurvey;
  } catch {
    return bySurvey;
  } finally {
    db.close();
  }
}
