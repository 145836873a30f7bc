import { AppError } from '../../lib/app-error.js';
import { hmacHex } from '../../lib/keys.js';
import { legacyProfile, openProfile, sealProfile } from '../../lib/profile-seal.js';
import type { ResultsService } from '../results/results.service.js';
import { AGE_BANDS, OLDEST_BAND, type RespondentsRepository } from './respondents.repository.js';

/** Profiles sealed per statement when old plain ones are sealed. */
const SEAL_BATCH = 1000;

type AccountStatus = 'pending' | 'under_review' | 'active' | 'rejected' | 'suspended';

/** Age band of a year of birth in `now`'s year (the band of the age reached that year). */
export function ageBand(yearOfBirth: number, now: Date): string {
  const age = now.getUTCFullYear() - yearOfBirth;
  return AGE_BANDS.find(([oldest]) => age <= oldest)?.[1] ?? OLDEST_BAND;
}

/** Only verified, approved, not suspended accounts count in results. */
export function countsInResults(status: AccountStatus, phoneVerifiedAt: Date | null): boolean {
  return status === 'active' && phoneVerifiedAt !== null;
}

export interface RespondentsServiceDeps {
  /** derivePseudonymKey(secrets): the only way from a user uuid to a respondent. */
  pseudonymKey: Buffer;
  /** deriveProfileKey(secrets): seals respondents' breakdown fields. */
  profileKey: Buffer;
  /** Moves a respondent's answers into or out of the results when their standing changes. */
  counting: Pick<ResultsService, 'startCounting' | 'stopCounting' | 'releaseNow'>;
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
  // Keyed by account id: a request that finds its respondent here computes no HMAC (the
  // pseudonym is for the database; this process knows whose request it serves anyway).
  const ids = new Map<string, { id: number }>();
  const creating = new Map<string, Promise<number>>();

  const pseudonymOf = (uuid: string) => hmacHex(deps.pseudonymKey, uuid.toLowerCase());
  const keyOf = (uuid: string) => uuid.toLowerCase();

  function remember(uuid: string, id: number) {
    if (ids.size >= cacheSize) ids.delete(ids.keys().next().value!);
    ids.set(keyOf(uuid), { id });
  }

  async function create(uuid: string, pseudonym: string): Promise<number> {
    const now = clock();
    const id = await repo.getOrCreate(uuid, pseudonym, (account) =>
      sealProfile(deps.profileKey, {
        gender: account.gender,
        ageBand: ageBand(account.yearOfBirth, now),
        country: account.country,
      }),
    );
    // A valid token for an account that no longer exists.
    if (id === undefined) throw new AppError('UNAUTHENTICATED');
    remember(uuid, id);
    return id;
  }

  async function find(uuid: string): Promise<number | undefined> {
    const known = ids.get(keyOf(uuid));
    if (known) return known.id;
    const id = await repo.findIdByPseudonym(pseudonymOf(uuid));
    if (id !== undefined) remember(uuid, id);
    return id;
  }

  return {
    pseudonymOf,

    /** The member's respondent id, or undefined when they never answered, rated or were timed. */
    find,

    /** The member's respondent id, creating the row on first use (race-safe, deduplicated). */
    async getOrCreate(uuid: string): Promise<number> {
      const key = keyOf(uuid);
      const known = ids.get(key);
      if (known) return known.id;
      let pending = creating.get(key);
      if (!pending) {
        pending = create(uuid, pseudonymOf(uuid)).finally(() => creating.delete(key));
        creating.set(key, pending);
      }
      return pending;
    },

    /**
     * An account's standing changed (approved, rejected, suspended): its respondent, if any,
     * starts counting (all its answers join the results) or stops (they all leave, for good:
     * a lifted suspension does not bring them back, docs/decisions/011).
     */
    async accountStatusChanged(
      uuid: string,
      status: AccountStatus,
      phoneVerifiedAt: Date | null,
    ): Promise<void> {
      const id = await find(uuid);
      if (id === undefined) return;
      if (countsInResults(status, phoneVerifiedAt)) await deps.counting.startCounting(id);
      else await deps.counting.stopCounting(id);
    },

    /** Everything stored under the member's pseudonym (null when they never answered). */
    async exportOf(uuid: string) {
      const id = await find(uuid);
      if (id === undefined) return null;
      const { profile: stored, ...rest } = await repo.exportOf(id);
      const profile = stored
        ? {
            ...(legacyProfile(stored.profile) ?? openProfile(deps.profileKey, stored.profile)),
            counts: stored.standing === 'counting',
          }
        : undefined;
      return { profile, ...rest };
    },

    /**
     * Seals, a batch at a time, the profiles the 0007 migration left in plain text, until none
     * is left or `signal` aborts (the server does this in the background: the fold opens both
     * forms, and a million profiles take minutes). Returns how many it sealed.
     */
    async sealLegacyProfiles(signal?: AbortSignal): Promise<number> {
      let sealed = 0;
      let after = 0; // ids are positive
      while (!signal?.aborted) {
        const batch = await repo.unsealedProfiles(after, SEAL_BATCH);
        await repo.setProfiles(
          batch.map((row) => ({
            id: row.id,
            profile: sealProfile(deps.profileKey, legacyProfile(row.profile)!),
          })),
        );
        sealed += batch.length;
        if (batch.length < SEAL_BATCH) break;
        after = batch.at(-1)!.id;
      }
      return sealed;
    },

    /**
     * First step of erasing a member: their answers leave the counters (and stop counting), so
     * nothing of theirs is published again; returns their respondent id for the deletion,
     * which the account's erasure does in the same transaction as the account.
     */
    async withdraw(uuid: string): Promise<number | undefined> {
      const id = await find(uuid);
      if (id !== undefined) await deps.counting.stopCounting(id);
      return id;
    },

    /**
     * Last step of an erasure: the id is forgotten here, and snapshots showing one of the
     * member's answers as a sample are published again at once.
     */
    async erased(uuid: string, sampleQuestions: number[]): Promise<void> {
      ids.delete(keyOf(uuid));
      for (const questionId of sampleQuestions) await deps.counting.releaseNow(questionId);
    },

    /** A respondent id turned out to be gone (erased by another process): forget it. */
    forget(uuid: string): void {
      ids.delete(keyOf(uuid));
    },
  };
}

export type RespondentsService = ReturnType<typeof createRespondentsService>;
