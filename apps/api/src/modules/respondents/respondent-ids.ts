import { AppError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import { sealProfile } from '../../lib/profile-seal.js';
import { ageBandOf, type AnswerProfile } from '@candor/contracts';
import type { RespondentsRepository } from './respondents.repository.js';

/** Age band of a year of birth in `now`'s year (the band of the age reached that year). */
export const ageBand = (yearOfBirth: number, now: Date): string => ageBandOf(yearOfBirth, now);

export interface RespondentIdsDeps {
  /** derivePseudonymKey(secrets): the only way from a user uuid to a respondent. */
  pseudonymKey: Buffer;
  /** deriveProfileKey(secrets): seals the breakdown fields of a respondent made here. */
  profileKey: Buffer;
  /** Respondent ids kept in memory; the oldest entry leaves when full. */
  cacheSize?: number;
}

/**
 * A member's respondent id, from their uuid through its pseudonym. The row is found or created
 * on their first answer, rating or timing; its id is then kept in memory by account id (a hit
 * computes no HMAC: the pseudonym is for the database, and this process knows whose request it
 * serves anyway), so the answering hot path does not read it again. Needs nothing of the results: answering,
 * panels, the "answered first?" check and the respondents service all share this one.
 */
export function createRespondentIds(
  repo: Pick<RespondentsRepository, 'getOrCreate' | 'findIdByPseudonym'>,
  deps: RespondentIdsDeps,
) {
  const cacheSize = deps.cacheSize ?? 100_000;
  const ids = new Map<string, { id: number }>();
  const creating = new Map<string, Promise<number>>();

  const pseudonymOf = (uuid: string) => hmacHex(deps.pseudonymKey, uuid.toLowerCase());
  const keyOf = (uuid: string) => uuid.toLowerCase();

  function remember(uuid: string, id: number) {
    if (ids.size >= cacheSize) ids.delete(ids.keys().next().value!);
    ids.set(keyOf(uuid), { id });
  }

  async function create(uuid: string, pseudonym: string, profile?: AnswerProfile) {
    const id = await repo.getOrCreate(uuid, pseudonym, (account) =>
      sealProfile(deps.profileKey, {
        gender: profile?.gender ?? 'undisclosed',
        ageBand: profile?.age_band ?? 'undisclosed',
        country: profile?.country ?? account.country,
      }),
    );
    // A valid token for an account that no longer exists.
    if (id === undefined) throw new AppError('UNAUTHENTICATED');
    remember(uuid, id);
    return id;
  }

  return {
    pseudonymOf,

    /** The member's respondent id, or undefined when they never answered, rated or were timed. */
    async find(uuid: string): Promise<number | undefined> {
      const known = ids.get(keyOf(uuid));
      if (known) return known.id;
      const id = await repo.findIdByPseudonym(pseudonymOf(uuid));
      if (id !== undefined) remember(uuid, id);
      return id;
    },

    /**
     * The member's respondent id, creating the row on first use (race-safe, deduplicated), with
     * the breakdown class the device sent (`profile`; gender and year of birth are no longer
     * beside accounts, decision 020): a first use without one (a rating, a timing, an older
     * client) files the respondent as undisclosed, in the account's country.
     */
    async getOrCreate(uuid: string, profile?: AnswerProfile): Promise<number> {
      const key = keyOf(uuid);
      const known = ids.get(key);
      if (known) return known.id;
      let pending = creating.get(key);
      if (!pending) {
        pending = create(uuid, pseudonymOf(uuid), profile).finally(() => creating.delete(key));
        creating.set(key, pending);
      }
      return pending;
    },

    /** The respondent is gone (erased, here or by another process): its id is forgotten. */
    forget(uuid: string): void {
      ids.delete(keyOf(uuid));
    },
  };
}

export type RespondentIds = ReturnType<typeof createRespondentIds>;
