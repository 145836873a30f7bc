import type { Mirror } from '@candor/contracts';
import { apiRequest } from '../../../lib/api-client';
import type { CandorDb } from '../lib/local-db';

/**
 * The answers a member gave as the logged-in member, before credentials (decision 020): the API
 * still files them beside the account, until slice 5 severs them. The device copies them into
 * its own records (and so into the vault) once per page and person; from then on this device is
 * the one source of the member's answers: "my attempted questions", the mirror, the outro and
 * where a survey resumes. The API's list is read for that copy only, never to show.
 */

interface Deps {
  db: () => CandorDb;
  /** Answers were added: the screens read again, and the vault is written at its next turn. */
  onAdded: (added: number) => void;
}

export function createAccountAnswers({ db, onAdded }: Deps) {
  /** One copy per person in this page's life; a failed one is tried again at the next read. */
  const copies = new Map<string, Promise<number>>();

  async function copy(owner: string, stillOwner: () => boolean): Promise<number> {
    const mirror = await apiRequest<Mirror>('/v1/user/mirror/');
    // Read with the session of whoever is logged in now: written only if that is still them.
    if (!stillOwner()) throw new Error('Another person logged in meanwhile.');
    if (mirror.results.length === 0) return 0;
    const added = await db().transaction('rw', db().answeredQuestions, async () => {
      const have = new Set(
        (
          await db()
            .answeredQuestions.filter((a) => a.owner === owner)
            .toArray()
        ).map((a) => a.qid),
      );
      const rows = mirror.results
        .filter((item) => !have.has(item.qid))
        .map((item) => ({
          qid: item.qid,
          gid: item.gid,
          date: item.date,
          answer: item.answer,
          isBlank: item.is_blank,
          ...(item.rating !== null && { rating: item.rating }),
          owner,
        }));
      await db().answeredQuestions.bulkAdd(rows);
      return rows.length;
    });
    if (added > 0) onAdded(added);
    return added;
  }

  return {
    /**
     * Resolves once this page copied `owner`'s account answers to the device, with how many were
     * new (0 when the copy failed: offline, or the session ended; the next read tries again).
     */
    copied(owner: string, stillOwner: () => boolean): Promise<number> {
      let done = copies.get(owner);
      if (!done) {
        done = copy(owner, stillOwner).catch(() => {
          copies.delete(owner);
          return 0;
        });
        copies.set(owner, done);
      }
      return done;
    },
    /** The person logged out: their records left the device, a later login copies again. */
    forget(owner: string): void {
      copies.delete(owner);
    },
  };
}
