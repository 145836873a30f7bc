import { legacyProfile, openProfile, sealProfile } from '../../lib/profile-seal.js';
import type { ResultsService } from '../results/results.service.js';
import type { RespondentIds } from './respondent-ids.js';
import type { RespondentsRepository } from './respondents.repository.js';

/** Profiles sealed per statement when old plain ones are sealed. */
const SEAL_BATCH = 1000;

type AccountStatus = 'pending' | 'under_review' | 'active' | 'rejected' | 'suspended';

/** Only verified, approved, not suspended accounts count in results. */
export function countsInResults(status: AccountStatus, phoneVerifiedAt: Date | null): boolean {
  return status === 'active' && phoneVerifiedAt !== null;
}

export interface RespondentsServiceDeps {
  /** uuid -> respondent id (shared with answering and panels). */
  ids: Pick<RespondentIds, 'find' | 'forget'>;
  /** deriveProfileKey(secrets): seals and opens respondents' breakdown fields. */
  profileKey: Buffer;
  /** Moves a respondent's answers into or out of the results when their standing changes. */
  counting: Pick<ResultsService, 'startCounting' | 'stopCounting' | 'releaseNow'>;
}

/**
 * Pseudonymous respondents: their standing in the results as their account's changes, what is
 * stored under them (the member's export), their erasure, and sealing old plain profiles.
 */
export function createRespondentsService(
  repo: RespondentsRepository,
  deps: RespondentsServiceDeps,
) {
  const { find } = deps.ids;

  return {
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
      deps.ids.forget(uuid);
      for (const questionId of sampleQuestions) await deps.counting.releaseNow(questionId);
    },
  };
}

export type RespondentsService = ReturnType<typeof createRespondentsService>;
