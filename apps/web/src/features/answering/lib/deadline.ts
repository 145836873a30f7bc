// A timed question's deadline, kept in this browser so that a reload does not start the clock
// again (and an extension survives it too). One question is timed at a time: one record.
const KEY = 'candor.questionDeadline';

interface Deadline {
  qid: string;
  /** When the time runs out (ms since the epoch). */
  endsAt: number;
}

function read(): Deadline | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (
      raw &&
      typeof raw === 'object' &&
      typeof (raw as Deadline).qid === 'string' &&
      typeof (raw as Deadline).endsAt === 'number'
    ) {
      return raw as Deadline;
    }
  } catch {
    // Damaged or refused: as good as none.
  }
  return null;
}

/** The stored deadline of question `qid`, if its clock has started in this browser. */
export function readDeadline(qid: string): number | null {
  const saved = read();
  return saved?.qid === qid ? saved.endsAt : null;
}

export function saveDeadline(qid: string, endsAt: number): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ qid, endsAt } satisfies Deadline));
  } catch {
    // Storage refused: the clock still runs, only a reload restarts it.
  }
}

/** Forgets `qid`'s deadline: it was answered before its time ran out. */
export function clearDeadline(qid: string): void {
  if (read()?.qid !== qid) return;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The question whose time ran out (its deadline passed and was never cleared), if any. */
export function ranOutQid(now: number = Date.now()): string | null {
  const saved = read();
  return saved && saved.endsAt <= now ? saved.qid : null;
}
