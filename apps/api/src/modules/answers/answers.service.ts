import {
  type AnswerRequest,
  type AttemptedQuestionList,
  type Mirror,
  type PendingAnswerList,
  OPEN_ANSWER_MAX_LENGTH,
  type PageQuery,
  type TimingId,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { pageLinks } from '../../lib/paging.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import type { AnswersRepository } from './answers.repository.js';
import {
  type TimingKind,
  signTimingId,
  timingNonce,
  timingOwner,
  verifyTimingId,
} from './timing-id.js';

const CHOOSE = 'Choose one of the answers.';

function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });
}

/** The stored form of a valid answer to `q`, or the field error that explains why not. */
export function normalise(q: CatalogQuestion, body: AnswerRequest) {
  if (q.type === 'Closed') {
    if (body.text !== undefined) {
      throw fieldError('text', 'This question takes one of its answers, not text.');
    }
    const choice = body.choice === undefined ? undefined : q.choiceByLabel.get(body.choice);
    if (!choice) throw fieldError('choice', CHOOSE);
    return { choiceId: choice.id, text: null, isBlank: choice.isBlank, moderation: null };
  }
  if (body.choice !== undefined) {
    throw fieldError('choice', 'This question takes a written answer, not a choice.');
  }
  if (body.text === undefined) throw fieldError('text', 'Write your answer as text.');
  const text = body.text.trim();
  const max = Math.min(q.maxLength ?? OPEN_ANSWER_MAX_LENGTH, OPEN_ANSWER_MAX_LENGTH);
  if (text.length > max) throw fieldError('text', `Use at most ${max} characters.`);
  // A written answer waits for a moderator before it can be shown as a sample answer.
  return text === ''
    ? { choiceId: null, text: null, isBlank: true, moderation: null }
    : { choiceId: null, text, isBlank: false, moderation: 'pending' as const };
}

export interface AnswersServiceDeps {
  surveys: Pick<SurveysService, 'findQuestion'>;
  /** Moderation decisions are written to the audit log. */
  audit: Pick<AuditService, 'record'>;
  /** Keys.timing: signs the timing ids. */
  timingKey: Buffer;
  clock?: () => Date;
}

/**
 * What answering keeps beside the session: the moderation of written answers, the timing calls
 * (which store nothing) and the member's own lists (empty). Answers and ratings themselves take
 * the survey's credential (credentials.service.ts).
 */
export function createAnswersService(repo: AnswersRepository, deps: AnswersServiceDeps) {
  const { surveys } = deps;
  const clock = deps.clock ?? (() => new Date());
  /** A timing id's member: a keyed hash of their uuid (ids are not stored). */
  const ownerOf = (uuid: string) => timingOwner(deps.timingKey, uuid.toLowerCase());

  async function questionOf(qid: string): Promise<CatalogQuestion> {
    const q = await surveys.findQuestion(qid);
    if (!q) throw new AppError('NOT_FOUND');
    return q;
  }

  return {
    /** Written answers for moderators, oldest first: their text and question, never their author. */
    async listForModeration(
      status: 'pending' | 'approved' | 'hidden',
      page: PageQuery,
      listUrl: string,
    ): Promise<PendingAnswerList> {
      const { rows, total } = await repo.listForModeration(
        status,
        (page.page - 1) * page.page_size,
        page.page_size,
      );
      return {
        count: total,
        ...pageLinks(listUrl, page, total),
        results: rows.map((r) => ({
          id: r.id,
          qid: r.qid,
          question: r.question,
          survey: r.survey,
          text: r.text ?? '',
          date: r.answeredOn,
          moderation: r.moderation!,
        })),
      };
    },

    /** Approves a written answer (it may be shown as a sample) or hides it (never shown). */
    async moderate(id: number, decision: 'approve' | 'hide', actor: Actor): Promise<void> {
      const done = await repo.setModeration(id, decision === 'approve' ? 'approved' : 'hidden');
      if (!done) throw new AppError('NOT_FOUND');
      await deps.audit.record(actor, `answer.${decision}`, `answer:${id}`);
    },

    /**
     * The spec's list of the member's answers: always empty. The server holds nothing of a
     * member's answers any more (decision 020): they are filed under the survey's credential,
     * which the server cannot tie to the account, and the answers given before credentials were
     * severed from their accounts. The member's devices keep their own list.
     */
    listAttempted(page: PageQuery, listUrl: string): AttemptedQuestionList {
      return { count: 0, ...pageLinks(listUrl, page, 0), results: [] };
    },

    /**
     * The spec's mirror: always empty, for the same reason (decision 020). The web app builds
     * the mirror from the device's own answers and the published results.
     */
    mirror(): Mirror {
      return { results: [] };
    },

    /** Starts an answer or graph timing: nothing is stored, the id carries the start. */
    async startTiming(uuid: string, kind: TimingKind, qid: string): Promise<TimingId> {
      const q = await questionOf(qid);
      return {
        id: signTimingId(deps.timingKey, {
          kind,
          qid: q.qid,
          who: ownerOf(uuid),
          startMs: clock().getTime(),
          nonce: timingNonce(),
        }),
      };
    },

    /**
     * Ends a timing (the spec's call): checks the id and stores nothing. A duration stored with
     * the session would sit beside the account's respondent and name a question the account
     * answered, which nothing may (decision 020, slice 5): an answer's duration travels with its
     * credential instead, and graph timings are not kept. An id that is not good, of the other
     * kind or of another member is NOT_FOUND.
     */
    async endTiming(uuid: string, kind: TimingKind, id: string): Promise<TimingId> {
      const claims = verifyTimingId(deps.timingKey, id);
      if (claims?.kind !== kind || claims.who !== ownerOf(uuid)) {
        throw new AppError('NOT_FOUND');
      }
      await questionOf(claims.qid);
      return { id };
    },
  };
}

export type AnswersService = ReturnType<typeof createAnswersService>;
