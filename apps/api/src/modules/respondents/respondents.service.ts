import { legacyProfile, sealProfile } from '../../lib/profile-seal.js';
import type { RespondentsRepository } from './respondents.repository.js';

/** Profiles sealed per statement when old plain ones are sealed. */
const SEAL_BATCH = 1000;

type AccountStatus = 'pending' | 'under_review' | 'active' | 'rejected' | 'suspended';

/** Only verified, approved, not suspended accounts count in results. */
export function countsInResults(status: AccountStatus, phoneVerifiedAt: Date | null): boolean {
  return status === 'active' && phoneVerifiedAt !== null;
}

export interface RespondentsServiceDeps {
  /** deriveProfileKey(secrets): seals respondents' breakdown fields. */
  profileKey: Buffer;
}

/**
 * Respondents (the credentials' and the severed old ones, decision 020): nothing here leads
 * from an account to one. What is left to do to them as a whole: sealing old plain profiles.
 */
export function createRespondentsService(
  repo: RespondentsRepository,
  deps: RespondentsServiceDeps,
) {
  return {
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
  };
}

export type RespondentsService = ReturnType<typeof createRespondentsService>;
