import { AppError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import type { RespondentsRepository } from './respondents.repository.js';

type AccountStatus = 'pending' | 'under_review' | 'active' | 'rejected' | 'suspended';

/** Age band of a year of birth in `now`'s year (the band of the age reached that year). */
export function ageBand(yearOfBirth: number, now: Date): string {
  const age = now.getUTCFullYear() - yearOfBirth;
  if (age < 18) return 'under-18';
  if (age <= 24) return '18-24';
  if (age <= 34) return '25-34';
  if (age <= 44) return '35-44';
  if (age <= 54) return '45-54';
  if (age <= 64) return '55-64';
  return '65+';
}

/** Only verified, approved, not suspended accounts count in results. */
export function countsInResults(status: AccountStatus, phoneVerifiedAt: Date | null): boolean {
  return status === 'active' && phoneVerifiedAt !== null;
}

export interface RespondentsServiceDeps {
  /** derivePseudonymKey(secrets): the only way from a user uuid to a respondent. */
  pseudonymKey: Buffer;
  clock?: () => Date;
  /** Respondent ids kept in memory; the oldest entry leaves when full. */
  cacheSize?: number;
}

/**
 * Pseudonymous respondents. A member's respondent row is found or created on their first answer,
 * rating or timing; its id is then kept in memory (pseudonym -> id), so the answering hot path
 * does not read it again.
 */
export function createRespondentsService(
  repo: RespondentsRepository,
  deps: RespondentsServiceDeps,
) {
  const clock = deps.clock ?? (() => new Date());
  const cacheSize = deps.cacheSize ?? 100_000;
  const ids = new Map<string, { id: number }>();
  const creating = new Map<string, Promise<number>>();

  const pseudonymOf = (uuid: string) => hmacHex(deps.pseudonymKey, uuid.toLowerCase());

  function remember(pseudonym: string, id: number) {
    if (ids.size >= cacheSize) ids.delete(ids.keys().next().value!);
    ids.set(pseudonym, { id });
  }

  async function create(uuid: string, pseudonym: string): Promise<number> {
    const profile = await repo.findProfile(uuid);
    // A valid token for an account that no longer exists.
    if (!profile) throw new AppError('UNAUTHENTICATED');
    const id = await repo.getOrCreate({
      pseudonym,
      gender: profile.gender,
      ageBand: ageBand(profile.yearOfBirth, clock()),
      country: profile.country,
      counts: countsInResults(profile.status, profile.phoneVerifiedAt),
    });
    remember(pseudonym, id);
    return id;
  }

  return {
    pseudonymOf,

    /** The member's respondent id, or undefined when they never answered, rated or were timed. */
    async find(uuid: string): Promise<number | undefined> {
      const pseudonym = pseudonymOf(uuid);
      const known = ids.get(pseudonym);
      if (known) return known.id;
      const id = await repo.findIdByPseudonym(pseudonym);
      if (id !== undefined) remember(pseudonym, id);
      return id;
    },

    /** The member's respondent id, creating the row on first use (race-safe, deduplicated). */
    async getOrCreate(uuid: string): Promise<number> {
      const pseudonym = pseudonymOf(uuid);
      const known = ids.get(pseudonym);
      if (known) return known.id;
      let pending = creating.get(pseudonym);
      if (!pending) {
        pending = create(uuid, pseudonym).finally(() => creating.delete(pseudonym));
        creating.set(pseudonym, pending);
      }
      return pending;
    },

    /**
     * An account's standing changed (approved, rejected, suspended): its respondent, if any,
     * counts or stops counting for answers folded from now on.
     */
    async accountStatusChanged(
      uuid: string,
      status: AccountStatus,
      phoneVerifiedAt: Date | null,
    ): Promise<void> {
      await repo.setCounts(pseudonymOf(uuid), countsInResults(status, phoneVerifiedAt));
    },
  };
}

export type RespondentsService = ReturnType<typeof createRespondentsService>;
