import { type PageQuery, type ReviewAccount, maskPhoneNumber } from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { pageLinks } from '../../lib/paging.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { AuthRepository, UserRow } from './auth.repository.js';

export interface SignupReviewServiceDeps {
  /** Every decision is written to the audit log. */
  audit?: Pick<AuditService, 'record'>;
  clock: () => Date;
}

/** Signups the risk checks held back (signup-risk.ts), for moderators to approve or reject. */
export function createSignupReviewService(
  repo: Pick<AuthRepository, 'listByStatus' | 'findUserByUuid' | 'updateUser' | 'revokeAllOfUser'>,
  { audit, clock }: SignupReviewServiceDeps,
) {
  return {
    /** Accounts waiting for a moderator, oldest first. */
    async listUnderReview(page: PageQuery, listUrl: string) {
      const { rows, total } = await repo.listByStatus(
        'under_review',
        (page.page - 1) * page.page_size,
        page.page_size,
      );
      return { count: total, ...pageLinks(listUrl, page, total), results: rows.map(toReview) };
    },

    /**
     * approve: the account may get credentials (its device sends the answers it kept); reject:
     * it cannot log in and its sessions end. Never on the actor's own account (FORBIDDEN).
     */
    async review(
      uuid: string,
      decision: 'approve' | 'reject',
      actor: Actor,
    ): Promise<ReviewAccount> {
      if (!isUuid(uuid)) throw new AppError('NOT_FOUND');
      // Review is a second pair of eyes: staff whose own signup is held cannot let it through.
      if (uuid.toLowerCase() === actor.uuid.toLowerCase()) {
        throw new AppError('FORBIDDEN', 'Staff cannot decide on their own signup.');
      }
      const user = await repo.findUserByUuid(uuid.toLowerCase());
      if (user?.status !== 'under_review') throw new AppError('NOT_FOUND');
      const updated = await repo.updateUser(
        user.id,
        { status: decision === 'approve' ? 'active' : 'rejected' },
        'under_review',
      );
      if (!updated) throw new AppError('NOT_FOUND');
      if (decision === 'reject') await repo.revokeAllOfUser(user.id, clock());
      await audit?.record(actor, `signup.${decision}`, `user:${updated.uuid}`);
      return toReview(updated);
    },
  };
}

export type SignupReviewService = ReturnType<typeof createSignupReviewService>;

function toReview(user: UserRow): ReviewAccount {
  return {
    uuid: user.uuid,
    phone_masked: maskPhoneNumber(user.phoneE164),
    country: user.country,
    status: user.status as ReviewAccount['status'],
    risk_reasons: user.riskReasons,
    created_at: user.createdAt.toISOString(),
  };
}
