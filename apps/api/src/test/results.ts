import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { questionTallies } from '../db/schema.js';
import { type Pending, type Snapshot, mergePending } from '../modules/results/privacy.js';
import type { StoredPending } from '../modules/results/results.repository.js';
import { openPending } from '../modules/results/results.service.js';

/**
 * The open period's true change of a question (never published), opened with the app's
 * profile key (deriveProfileKey of its secrets): what tests check counts by. Changes held apart
 * for the trigger (Pending.held: what staff caused) are added in: the whole true change.
 */
export async function pendingOf(
  db: Db,
  questionId: number,
  profileKey: Buffer,
): Promise<Pending | null> {
  const stored = await heldPendingOf(db, questionId, profileKey);
  if (!stored?.held) return stored;
  const { held, ...free } = stored;
  return mergePending(free, held);
}

/** The open period as stored, opened: what is held apart (Pending.held) left apart. */
export async function heldPendingOf(
  db: Db,
  questionId: number,
  profileKey: Buffer,
): Promise<Pending | null> {
  const [row] = await db
    .select({ pending: questionTallies.pending })
    .from(questionTallies)
    .where(eq(questionTallies.questionId, questionId));
  return openPending(profileKey, (row?.pending as StoredPending | null | undefined) ?? null);
}

/** The stored snapshot of a question (noisy, as published). */
export async function snapshotOf(db: Db, questionId: number): Promise<Snapshot | null> {
  const [row] = await db
    .select({ snapshot: questionTallies.snapshot })
    .from(questionTallies)
    .where(eq(questionTallies.questionId, questionId));
  return (row?.snapshot as Snapshot | null | undefined) ?? null;
}

/** Sum of a pending increment's cells of one dimension and outcome prefix. */
export function pendingTotal(pending: Pending | null, dimension = 'all'): number {
  return Object.entries(pending?.cells ?? {})
    .filter(([key]) => key.startsWith(`${dimension}|`))
    .reduce((n, [, v]) => n + v, 0);
}
