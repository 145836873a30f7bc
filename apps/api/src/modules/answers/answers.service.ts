import {
  type AnswerRequest,
  type AnswerResponse,
  type AttemptedQuestionList,
  type Mirror,
  type PendingAnswerList,
  OPEN_ANSWER_MAX_LENGTH,
  type PageQuery,
  type QuestionResults,
  type RatingResponse,
  standingAmong,
  type TimingId,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import { FOREIGN_KEY_VIOLATION, sqlConstraint, sqlState } from '../../lib/sql-state.js';
import { pageLinks } from '../../lib/paging.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { RespondentIds } from '../respondents/respondent-ids.js';
import type { ResultsService } from '../results/results.service.js';
import type { CatalogQuestion, SurveysService } from '../surveys/surveys.service.js';
import type { AnswersRepository, StoredAnswer } from './answers.repository.js';
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

type Normalised = ReturnType<typeof normalise>;

export interface AnswersServiceDeps {
  surveys: Pick<SurveysService, 'findQuestion'>;
  /** uuid -> respondent id; a respondent is created on a member's first answer. */
  respondents: RespondentIds;
  /**
   * Whether the account holds the survey's anonymous credential (decision 020): then it answers
   * that survey only with it, so it cannot answer twice, once each way. Until the web app moves.
   */
  holdsCredential?: (uuid: string, surveyId: number) => Promise<boolean>;
  results: ResultsService;
  /** Moderation decisions are written to the audit log. */
  audit: Pick<AuditService, 'record'>;
  /** Keys.timing: signs the timing ids. */
  timingKey: Buffer;
  clock?: () => Date;
}

export interface Submitted {
  /** 201 for a new answer, 200 for a replay of one already stored. */
  status: 201 | 200;
  body: AnswerResponse;
}

/** Answering: one answer per member and question, ratings, timings and the member's own list. */
export function createAnswersService(repo: AnswersRepository, deps: AnswersServiceDeps) {
  const { surveys, respondents, results } = deps;
  const clock = deps.clock ?? (() => new Date());
  /** A timing id's member: a keyed hash of their uuid (ids are not stored). */
  const ownerOf = (uuid: string) => timingOwner(deps.timingKey, uuid.toLowerCase());

  async function questionOf(qid: string): Promise<CatalogQuestion> {
    const q = await surveys.findQuestion(qid);
    if (!q) throw new AppError('NOT_FOUND');
    return q;
  }

  async function resultsFor(q: CatalogQuestion): Promise<QuestionResults | null> {
    // Instant feedback (v1_*) shows the graph right after the answer; v2_* only at the end.
    return q.variant.startsWith('v1_') ? results.forQuestion(q) : null;
  }

  async function reply(
    q: CatalogQuestion,
    stored: Pick<StoredAnswer, 'choiceId' | 'text' | 'isBlank' | 'answeredOn'>,
  ): Promise<AnswerResponse> {
    const answer =
      stored.choiceId !== null
        ? (q.choiceById.get(stored.choiceId)?.label ?? '')
        : (stored.text ?? '');
    return {
      qid: q.qid,
      gid: q.surveyGid,
      answer,
      is_blank: stored.isBlank,
      date: stored.answeredOn,
      results: await resultsFor(q),
    };
  }

  /**
   * A write that fails on a foreign key refers to something gone since this process read it:
   * the respondent (another process erased the account: the caller is told so), or a question or
   * choice an admin removed a moment ago (the content snapshot was older than the edit).
   */
  async function goneIfErased<T>(uuid: string, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (err) {
      if (sqlState(err) !== FOREIGN_KEY_VIOLATION) throw err;
      if (!sqlConstraint(err)?.includes('respondent_id')) {
        throw new AppError(
          'INVALID_STATE',
          'This question was changed a moment ago. Reload the survey and answer again.',
        );
      }
      respondents.forget(uuid);
      throw new AppError('UNAUTHENTICATED');
    }
  }

  const sameAnswer = (a: StoredAnswer, b: Normalised) =>
    a.choiceId === b.choiceId && a.text === b.text && a.isBlank === b.isBlank;

  return {
    /**
     * Stores the member's one answer to a question with a single INSERT ... ON CONFLICT DO
     * NOTHING. A conflict is a replay (200, the stored answer) when it is the same answer or
     * carries the same Idempotency-Key, else ALREADY_ANSWERED.
     */
    async submit(
      uuid: string,
      qid: string,
      body: AnswerRequest,
      idempotencyKey: string | undefined,
    ): Promise<Submitted> {
      const q = await questionOf(qid);
      if (q.closed) throw new AppError('SURVEY_CLOSED');
      const answer = normalise(q, body);
      if (await deps.holdsCredential?.(uuid, q.surveyId)) {
        throw new AppError(
          'ALREADY_ANSWERED',
          'This survey is answered with the anonymous credential your device holds for it.',
        );
      }
      const respondentId = await respondents.getOrCreate(uuid, body.profile);
      const values = {
        respondentId,
        questionId: q.id,
        ...answer,
        answeredOn: clock().toISOString().slice(0, 10),
        idempotencyKey: idempotencyKey ?? null,
      };
      if (await goneIfErased(uuid, repo.insertAnswer(values))) {
        return { status: 201, body: await reply(q, values) };
      }
      const stored = await repo.findAnswer(respondentId, q.id);
      // Gone between the two statements: the member's data was erased meanwhile.
      if (!stored) throw new AppError('UNAUTHENTICATED');
      const sameKey = idempotencyKey !== undefined && stored.idempotencyKey === idempotencyKey;
      if (sameKey || sameAnswer(stored, answer)) {
        return { status: 200, body: await reply(q, stored) };
      }
      throw new AppError('ALREADY_ANSWERED');
    },

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

    /** The member's answers, newest first; nobody else's. */
    async listAttempted(
      uuid: string,
      page: PageQuery,
      listUrl: string,
    ): Promise<AttemptedQuestionList> {
      const respondentId = await respondents.find(uuid);
      const { rows, total } =
        respondentId === undefined
          ? { rows: [], total: 0 }
          : await repo.listAnswers(respondentId, (page.page - 1) * page.page_size, page.page_size);
      return {
        count: total,
        ...pageLinks(listUrl, page, total),
        results: rows.map((r) => ({
          qid: r.qid,
          gid: r.gid,
          answer: r.label ?? r.text ?? '',
          is_blank: r.isBlank,
          date: r.answeredOn,
        })),
      };
    },

    /**
     * The mirror: every question the member answered, their answer and rating, and how many
     * of everyone counted gave the same answer (from the published, suppressed results).
     */
    async mirror(uuid: string): Promise<Mirror> {
      const respondentId = await respondents.find(uuid);
      if (respondentId === undefined) return { results: [] };
      const rows = await repo.mirrorRows(respondentId);
      const items = await Promise.all(
        rows.map(async (r) => {
          const q = await surveys.findQuestion(r.qid);
          const published = q ? await results.forQuestion(q) : null;
          const own = published?.choices.find((c) => c.choice === r.label);
          const others = published?.choices.filter((c) => !c.is_blank && c !== own) ?? [];
          const same = !r.isBlank && own ? own.percent : null;
          const sameMargin = same !== null ? (own?.margin ?? null) : null;
          // One rule with the web app's words: a minority only beyond both margins.
          const standing = own && same !== null ? standingAmong(own, others) : null;
          const minority = standing === null ? null : standing === 'minority';
          return {
            qid: r.qid,
            question: r.question,
            type: r.type,
            gid: r.gid,
            survey: r.survey,
            answer: r.label ?? r.text ?? '',
            is_blank: r.isBlank,
            date: r.answeredOn,
            rating: r.score,
            same_percent: same,
            same_margin: sameMargin,
            respondents: published?.respondents ?? null,
            minority,
            snapshot_at: published?.snapshot_at ?? null,
            next_update_after: published?.next_update_after ?? 0,
          };
        }),
      );
      return { results: items };
    },

    /** Rates a question the member answered, 0 to 10; rating again changes the score. */
    async rate(uuid: string, qid: string, score: number): Promise<RatingResponse> {
      const q = await questionOf(qid);
      const respondentId = await respondents.find(uuid);
      const stored =
        respondentId === undefined ? undefined : await repo.upsertRating(respondentId, q.id, score);
      if (stored === undefined) throw new AppError('NOT_ANSWERED');
      return { qid: q.qid, score: stored };
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
