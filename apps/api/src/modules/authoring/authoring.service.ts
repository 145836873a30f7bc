import crypto from 'node:crypto';
import {
  type AdminGenre,
  type AdminGenreList,
  type AdminQuestion,
  type AdminSurvey,
  type AdminSurveyList,
  type AdminSurveySummary,
  type GenreInput,
  LEAVE_BLANK_CHOICE,
  QuestionInputSchema,
  SURVEY_FILE_FORMAT,
  type SurveyFile,
  SurveyFileSchema,
  SurveyInputSchema,
  type SurveyState,
} from '@candor/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { UNIQUE_VIOLATION, sqlConstraint, sqlState } from '../../lib/sql-state.js';
import type { ResultsService } from '../results/results.service.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { closedBy, shareableLink } from '../surveys/surveys.service.js';
import { UPLOADS_PATH } from '../images/images.service.js';
import { sampleSurveys } from '../../db/seed/content.js';
import type { AuthoringRepository, QuestionValues, SurveyValues } from './authoring.repository.js';
import { isUuid } from '../../lib/uuid.js';
import { pairProblems, twinProblem } from './twins.js';
import type { PairQuestion } from './authoring.repository.js';

type SurveyInput = z.output<typeof SurveyInputSchema>;
type QuestionInput = z.output<typeof QuestionInputSchema>;
type SurveyFileOutput = z.output<typeof SurveyFileSchema>;
type SurveyRow = NonNullable<Awaited<ReturnType<AuthoringRepository['findSurvey']>>>['survey'];

/** The sample surveys' slugs: the seed's, which no operator's survey can have (slugFor). */
const SAMPLE_SLUGS = new Set(sampleSurveys.map((s) => s.slug));

/** Open answers' limit when the admin sets none (the sample surveys' too). */
const DEFAULT_OPEN_MAX_LENGTH = 280;

/** Where a survey stands now. */
export function stateOf(s: SurveyRow, now: Date): SurveyState {
  if (!s.publishedAt) return 'draft';
  if (closedBy(s.closedAt, now)) return 'closed';
  return s.releaseDate > now ? 'scheduled' : 'open';
}

function surveyValues(input: SurveyInput): SurveyValues {
  return {
    name: input.name,
    author: input.author,
    coverHeadline: input.cover_headline,
    coverImage: input.cover_image,
    introImage: input.intro_screen_image,
    introText: input.intro_screen_text,
    outroText: input.outro_screen_text,
    variant: input.variant,
    randomiseQuestions: input.randomise_questions,
    ...(input.slot !== undefined ? { slot: input.slot } : {}),
    releaseDate: new Date(input.release_date),
  };
}

const isBlankLabel = (label: string) => label.toLowerCase() === LEAVE_BLANK_CHOICE.toLowerCase();

/** The row values, the choices to pick from, and the leave-blank label (closed questions only). */
function questionParts(input: QuestionInput) {
  const closed = input.type === 'Closed';
  const values: QuestionValues = {
    type: input.type,
    text: input.question,
    timerSeconds: input.timer_seconds,
    videoLink1: input.video_link_1,
    videoLink2: input.video_link_2,
    videoCaptions1: input.video_captions_1,
    videoCaptions2: input.video_captions_2,
    randomiseAnswers: input.randomise_answers,
    maxLength: closed ? null : (input.max_length ?? DEFAULT_OPEN_MAX_LENGTH),
    rrWeight: closed ? input.rr_weight : null,
    // Resolved against the survey's questions by `pairOf`.
    twinId: null,
  };
  const labels = closed ? input.choices.filter((c) => !isBlankLabel(c)) : [];
  return { values, labels, blank: closed ? LEAVE_BLANK_CHOICE : null };
}

/** An admin question as the input that makes it again, asking `twin` again (or nothing). */
function questionOf(q: AdminQuestion, twin: string | null): QuestionInput {
  return {
    type: q.type,
    question: q.question,
    choices: q.type === 'Closed' ? q.choices.filter((c) => !isBlankLabel(c)) : [],
    randomise_answers: q.randomise_answers,
    timer_seconds: q.timer_seconds,
    video_link_1: q.video_link_1,
    video_link_2: q.video_link_2,
    video_captions_1: q.video_captions_1,
    video_captions_2: q.video_captions_2,
    max_length: q.type === 'Open' ? q.max_length : null,
    rr_weight: q.rr_weight,
    twin_qid: twin,
  };
}

/** A survey's content as a file: questions numbered from 1, pairs by those numbers. */
function fileOf(s: AdminSurvey): SurveyFile {
  const number = new Map(s.questions.map((q, i) => [q.qid, i + 1]));
  return {
    format: SURVEY_FILE_FORMAT,
    survey: {
      name: s.name,
      author: s.author,
      cover_headline: s.cover_headline,
      intro_screen_text: s.intro_screen_text,
      outro_screen_text: s.outro_screen_text,
      cover_image: s.cover_image,
      intro_screen_image: s.intro_screen_image,
      variant: s.variant,
      randomise_questions: s.randomise_questions,
      genres: s.genres.map((g) => g.genre_name),
    },
    questions: s.questions.map((q) => questionOf(q, null)),
    pairs: s.questions.flatMap((q) =>
      q.twin_qid === null
        ? []
        : [{ question: number.get(q.qid)!, asks_again: number.get(q.twin_qid)! }],
    ),
  };
}

/** A slug nobody else has: the name's words and a random tail (never shown to members). */
function slugFor(name: string): string {
  const words = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${words || 'survey'}-${crypto.randomBytes(4).toString('hex')}`;
}

/**
 * The question a randomized question asks again (decision 029), as its row id: checked
 * against the survey's questions as they stand (VALIDATION_FAILED with the reason), null when
 * the input names none.
 */
function pairOf(
  input: QuestionInput,
  selfId: number | null,
  labels: string[],
  questions: readonly PairQuestion[],
): number | null {
  if (input.twin_qid === null) return null;
  const problem = twinProblem({ id: selfId, labels }, input.twin_qid, questions);
  if (problem) throw new AppError('VALIDATION_FAILED', undefined, { twin_qid: [problem] });
  return questions.find((q) => q.qid === input.twin_qid!.toLowerCase())!.id;
}

/**
 * Two pairings of one question at once: the checks of both passed, the unique index took one.
 * Said as the check would have said it, never as an error of the server.
 */
function pairTaken(err: unknown): never {
  if (sqlState(err) === UNIQUE_VIOLATION && sqlConstraint(err) === 'questions_twin_uq') {
    throw new AppError('VALIDATION_FAILED', undefined, {
      twin_qid: ['That question is asked again by another question already.'],
    });
  }
  throw err;
}

const PAIR_STARTS_TOGETHER =
  'This survey is published, so its pairs stay as they are: a question asked both ways must start with nobody answered, or its two halves would hold different people. Add both questions to a new survey instead.';

const quoted = (labels: string[]) => labels.map((l) => `“${l}”`).join(', ');

/**
 * Survey authoring for admins: every change audited. Edits never change what collected answers
 * mean, and what may be edited never depends on the answers (that would tell staff which
 * questions and choices someone picked, docs/decisions/011): once a survey is published, its
 * questions keep their type and their choices (which can be moved, and added to) and cannot be
 * deleted (ANSWERS_EXIST, with the reason). A draft takes no answers, so it may change freely.
 */
export function createAuthoringService(
  repo: AuthoringRepository,
  {
    audit,
    results,
    onChange,
    vacuumAfterDelete,
    clock = () => new Date(),
  }: {
    audit: AuditService;
    /** About how many answered each question, as published: staff never see true counts. */
    results: Pick<ResultsService, 'approximateTotals'>;
    /** Content changed: public reads in this process should see it now (the survey cache). */
    onChange?: () => void;
    /** A survey deleted with its answers: its dead rows are vacuumed (db/erasure-vacuum.ts). */
    vacuumAfterDelete?: () => void;
    clock?: () => Date;
  },
) {
  /** Records a change in the audit log and lets public reads see it. */
  async function changed(...entry: Parameters<AuditService['record']>) {
    onChange?.();
    await audit.record(...entry);
  }

  async function load(gid: string, origin: string): Promise<AdminSurvey> {
    const found = isUuid(gid) ? await repo.findSurvey(gid.toLowerCase()) : undefined;
    if (!found) throw new AppError('NOT_FOUND');
    const { survey: s } = found;
    const locked = s.publishedAt !== null;
    const totals = await results.approximateTotals(found.questions.map((q) => q.id));
    const questions: AdminQuestion[] = found.questions.map((q) => {
      const own = found.choices.filter((c) => c.questionId === q.id && !c.isBlank);
      return {
        qid: q.qid,
        position: q.position,
        type: q.type,
        question: q.text,
        choices: own.map((c) => c.label),
        randomise_answers: q.randomiseAnswers,
        timer_seconds: q.timerSeconds,
        video_link_1: q.videoLink1,
        video_link_2: q.videoLink2,
        video_captions_1: q.videoCaptions1,
        video_captions_2: q.videoCaptions2,
        max_length: q.maxLength,
        rr_weight: q.rrWeight,
        twin_qid: found.questions.find((t) => t.id === q.twinId)?.qid ?? null,
        answers_count: totals.get(q.id) ?? 0,
        locked,
        locked_choices: locked ? own.map((c) => c.label) : [],
      };
    });
    return {
      ...summary(
        s,
        questions.length,
        questions.reduce((n, q) => n + q.answers_count, 0),
      ),
      author: s.author,
      cover_headline: s.coverHeadline,
      intro_screen_image: s.introImage,
      intro_screen_text: s.introText,
      outro_screen_text: s.outroText,
      randomise_questions: s.randomiseQuestions,
      genres: found.genres.map((g) => ({ unique_GID: g.gid, genre_name: g.name })),
      questions,
      shareable_link: shareableLink(origin, s.name, s.gid),
    };
  }

  function summary(s: SurveyRow, questionsCount: number, answersCount: number): AdminSurveySummary {
    const now = clock();
    // A draft is never closed: a close time it holds (even a past one) is still a schedule.
    const closed = s.publishedAt !== null && closedBy(s.closedAt, now);
    return {
      gid: s.gid,
      name: s.name,
      state: stateOf(s, now),
      cover_image: s.coverImage,
      variant: s.variant,
      slot: s.slot,
      release_date: s.releaseDate.toISOString(),
      date_published: s.publishedAt?.toISOString() ?? null,
      closed_at: closed ? s.closedAt!.toISOString() : null,
      closes_at: !closed && s.closedAt ? s.closedAt.toISOString() : null,
      archived_at: s.archivedAt?.toISOString() ?? null,
      sample: SAMPLE_SLUGS.has(s.slug),
      questions_count: questionsCount,
      answers_count: answersCount,
    };
  }

  /** The input's scheduled close, refused when it has already passed. */
  function scheduledClose(input: SurveyInput): Date | null {
    if (!input.closes_at) return null;
    const at = new Date(input.closes_at);
    if (at.getTime() <= clock().getTime()) {
      throw new AppError('VALIDATION_FAILED', undefined, {
        closes_at: ['That time has passed: pick a later one, or close the survey now.'],
      });
    }
    return at;
  }

  async function checkGenres(gids: string[]) {
    const unique = [...new Set(gids.map((g) => g.toLowerCase()))];
    const ids = await repo.genreIds(unique);
    if (ids.length !== unique.length) {
      throw new AppError('VALIDATION_FAILED', undefined, {
        genres: ['Pick genres from the list: one of them no longer exists.'],
      });
    }
    return unique;
  }

  /** Locks the question and its survey (publication waits), checks the change, applies it. */
  async function changeQuestion(
    qid: string,
    change: (
      tx: Parameters<Parameters<AuthoringRepository['transaction']>[0]>[0],
      q: NonNullable<Awaited<ReturnType<AuthoringRepository['lockQuestion']>>>,
    ) => Promise<void>,
  ): Promise<string> {
    if (!isUuid(qid)) throw new AppError('NOT_FOUND');
    return repo.transaction(async (tx) => {
      const found = await repo.lockQuestion(tx, qid.toLowerCase());
      if (!found) throw new AppError('NOT_FOUND');
      await change(tx, found);
      return found.surveyGid;
    });
  }

  async function list(): Promise<AdminSurveyList> {
    const rows = await repo.listSurveys();
    const totals = await results.approximateTotals(rows.flatMap((r) => r.questionIds));
    return {
      results: rows.map((r) =>
        summary(
          r.survey,
          r.questionIds.length,
          r.questionIds.reduce((n, id) => n + (totals.get(id) ?? 0), 0),
        ),
      ),
    };
  }

  return {
    get: load,
    list,

    async create(input: SurveyInput, actor: Actor, origin: string): Promise<AdminSurvey> {
      const closesAt = scheduledClose(input);
      const genreGids = await checkGenres(input.genres);
      const gid = await repo.createSurvey(
        { ...surveyValues(input), slug: slugFor(input.name), closesAt },
        genreGids,
      );
      await changed(actor, 'survey.create', `survey:${gid}`, { name: input.name });
      return load(gid, origin);
    },

    async update(gid: string, input: SurveyInput, actor: Actor, origin: string) {
      const current = await load(gid, origin);
      // The order people meet the questions in is part of what the numbers mean: fixed once
      // anyone may have answered (the codebook states one order for the whole survey).
      if (current.state !== 'draft' && input.randomise_questions !== current.randomise_questions) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          randomise_questions: [
            'The order of questions is fixed once the survey is published: duplicate it to ask in another order.',
          ],
        });
      }
      if (current.state === 'closed' && input.closes_at) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          closes_at: ['This survey is closed already: reopen it, then schedule its close.'],
        });
      }
      // A closed survey keeps its close; otherwise the schedule is set unless the survey's close
      // changed since it was read here (a close by hand meanwhile wins).
      const raw = current.closed_at ?? current.closes_at;
      const close =
        current.state === 'closed'
          ? undefined
          : { read: raw ? new Date(raw) : null, closesAt: scheduledClose(input) };
      const genreGids = await checkGenres(input.genres);
      if (!(await repo.updateSurvey(current.gid, surveyValues(input), genreGids, close))) {
        throw new AppError('NOT_FOUND');
      }
      await changed(actor, 'survey.update', `survey:${current.gid}`, {
        name: input.name,
        closes_at: input.closes_at,
      });
      return load(current.gid, origin);
    },

    /** Draft to published (listed from its release date); needs at least one question. */
    async publish(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const current = await load(gid, origin);
      if (current.state !== 'draft') {
        throw new AppError('INVALID_STATE', 'This survey is published already.');
      }
      if (!current.questions.length) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          non_field_errors: ['Add at least one question before publishing.'],
        });
      }
      if (current.closes_at && Date.parse(current.closes_at) <= clock().getTime()) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          closes_at: ['Its close time has passed: change it or clear it, then publish.'],
        });
      }
      const found = await repo.findSurvey(current.gid);
      const problems = found ? pairProblems(await repo.pairContext(found.survey.id)) : [];
      if (problems.length) {
        throw new AppError('VALIDATION_FAILED', undefined, { non_field_errors: problems });
      }
      await repo.setDates(current.gid, { publishedAt: clock() });
      await changed(actor, 'survey.publish', `survey:${current.gid}`, {
        release_date: current.release_date,
      });
      return load(current.gid, origin);
    },

    /** Stops taking answers (sets closed_at); its results become visible to everyone. */
    async close(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const current = await load(gid, origin);
      if (current.state === 'draft') {
        throw new AppError('INVALID_STATE', 'A draft cannot be closed: publish it first.');
      }
      if (current.state === 'closed') {
        throw new AppError('INVALID_STATE', 'This survey is closed already.');
      }
      await repo.setDates(current.gid, { closedAt: clock() });
      await changed(actor, 'survey.close', `survey:${current.gid}`);
      return load(current.gid, origin);
    },

    async reopen(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const current = await load(gid, origin);
      if (current.state !== 'closed') {
        throw new AppError('INVALID_STATE', 'Only a closed survey can be reopened.');
      }
      if (current.archived_at || !(await repo.reopen(current.gid))) {
        throw new AppError('INVALID_STATE', 'Take it out of the archive before reopening it.');
      }
      await changed(actor, 'survey.reopen', `survey:${current.gid}`);
      return load(current.gid, origin);
    },

    /** Off the home page, its page and results kept: a closed survey only (issue 31). */
    async archive(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const current = await load(gid, origin);
      if (current.archived_at) throw new AppError('INVALID_STATE', 'It is archived already.');
      if (current.state !== 'closed') {
        throw new AppError(
          'INVALID_STATE',
          'Close the survey before archiving it: an archived survey takes no answers.',
        );
      }
      // The row decides: a reopen or another archive since the read above loses nothing.
      if (!(await repo.archive(current.gid, clock()))) {
        throw new AppError('INVALID_STATE', 'It changed meanwhile: look again, then archive it.');
      }
      await changed(actor, 'survey.archive', `survey:${current.gid}`);
      return load(current.gid, origin);
    },

    /** Back from the archive: closed, and on the home page again if it has results. */
    async unarchive(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const current = await load(gid, origin);
      if (!current.archived_at) throw new AppError('INVALID_STATE', 'It is not archived.');
      await repo.setDates(current.gid, { archivedAt: null });
      await changed(actor, 'survey.unarchive', `survey:${current.gid}`);
      return load(current.gid, origin);
    },

    /**
     * Takes the sample surveys off the site: each is closed (if open or scheduled) and archived,
     * as an admin would one by one; their sample answers stay, out of sight, and the seed never
     * brings them back (it skips surveys that exist). Offered once an operator has their own.
     */
    async archiveSamples(actor: Actor): Promise<AdminSurveyList> {
      const now = clock();
      for (const { survey: s } of await repo.listSurveys()) {
        if (!SAMPLE_SLUGS.has(s.slug) || s.archivedAt || !s.publishedAt) continue;
        if (!closedBy(s.closedAt, now)) {
          await repo.setDates(s.gid, { closedAt: now });
          await changed(actor, 'survey.close', `survey:${s.gid}`);
        }
        if (await repo.archive(s.gid, now)) {
          await changed(actor, 'survey.archive', `survey:${s.gid}`, { sample: true });
        }
      }
      return list();
    },

    /**
     * Deletes a draft with its questions (nothing was answered). A closed survey goes with its
     * answers and releases once `name` is its exact name (decision 010); an open or scheduled
     * one must be closed first, so nobody is answering it while it goes. The tables it was in
     * are then vacuumed, as after an erasure.
     */
    async deleteSurvey(
      gid: string,
      name: string | undefined,
      actor: Actor,
      origin: string,
    ): Promise<void> {
      const current = await load(gid, origin);
      if (name !== undefined && name.trim() !== current.name) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          name: [`Type the survey’s name exactly as it is: ${current.name}`],
        });
      }
      if (current.state === 'draft') {
        if (!(await repo.deleteDraft(current.gid))) {
          throw new AppError('INVALID_STATE', 'It was published meanwhile: look again.');
        }
      } else if (current.state !== 'closed') {
        throw new AppError(
          'INVALID_STATE',
          'Close the survey before deleting it: people can still answer it.',
        );
      } else if (name === undefined) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          name: ['Type the survey’s name to delete it with its answers and results.'],
        });
      } else if (!(await repo.deleteClosed(current.gid, clock()))) {
        throw new AppError('INVALID_STATE', 'It was reopened meanwhile: look again.');
      } else {
        vacuumAfterDelete?.();
      }
      await changed(actor, 'survey.delete', `survey:${current.gid}`, {
        name: current.name,
        ...(current.state === 'draft' ? {} : { answered: true }),
      });
    },

    /**
     * A new draft with the survey's content (texts, images, genres, questions, choices and
     * pairs), never its answers: named "… (copy)", after the last brick, released now.
     */
    async duplicate(gid: string, actor: Actor, origin: string): Promise<AdminSurvey> {
      const from = await load(gid, origin);
      const file = SurveyFileSchema.parse(fileOf(from));
      file.survey.name = `${from.name.slice(0, 113)} (copy)`;
      return this.importFile(file, actor, origin, { copy_of: from.gid });
    },

    /** The survey's content as a file (SurveyFile): never its answers, counts or dates. */
    async exportFile(gid: string, origin: string): Promise<SurveyFile> {
      return fileOf(await load(gid, origin));
    },

    /**
     * A new draft from a survey file, released now, after the last brick. Genres are matched by
     * name (one missing here is refused); an uploaded image not stored here is left out. A
     * question or pair the editor would refuse removes the draft again: nothing half-made stays.
     */
    async importFile(
      file: SurveyFileOutput,
      actor: Actor,
      origin: string,
      details: Record<string, unknown> = { imported: true },
    ): Promise<AdminSurvey> {
      const n = file.questions.length;
      const pairProblemsOf = file.pairs.flatMap((p, i) =>
        p.question > n || p.asks_again > n
          ? [
              `Pair ${i + 1} names question ${Math.max(p.question, p.asks_again)}; the file has ${n}.`,
            ]
          : [],
      );
      if (pairProblemsOf.length) {
        throw new AppError('VALIDATION_FAILED', undefined, { pairs: pairProblemsOf });
      }
      const known = (await repo.listGenres()).map((r) => r.genre);
      const missing: string[] = [];
      const genreGids = file.survey.genres.flatMap((name) => {
        const found =
          known.find((g) => g.name === name) ??
          known.find((g) => g.name.toLowerCase() === name.toLowerCase());
        if (!found)
          missing.push(`No genre here is called “${name}”: add it first, or leave it out.`);
        return found ? [found.gid] : [];
      });
      if (missing.length) throw new AppError('VALIDATION_FAILED', undefined, { genres: missing });
      const uploaded = [file.survey.cover_image, file.survey.intro_screen_image].flatMap((p) =>
        p?.startsWith(UPLOADS_PATH) ? [p.slice(UPLOADS_PATH.length)] : [],
      );
      const stored = await repo.storedImages(uploaded);
      const image = (p: string | null) =>
        p?.startsWith(UPLOADS_PATH) && !stored.has(p.slice(UPLOADS_PATH.length)) ? null : p;
      const input = SurveyInputSchema.parse({
        ...file.survey,
        cover_image: image(file.survey.cover_image),
        intro_screen_image: image(file.survey.intro_screen_image),
        release_date: clock().toISOString(),
        genres: [...new Set(genreGids)],
      });
      const gid = await repo.createSurvey(
        { ...surveyValues(input), slug: slugFor(input.name), closesAt: null },
        input.genres,
      );
      await changed(actor, 'survey.create', `survey:${gid}`, { name: input.name, ...details });
      try {
        // The questions in order, then each pair: a randomized question may ask a later one.
        const qids: string[] = [];
        for (const q of file.questions) {
          const made = await this.addQuestion(gid, { ...q, twin_qid: null }, actor, origin);
          qids.push(made.questions.at(-1)!.qid);
        }
        for (const p of file.pairs) {
          // Checked as the editor's form is: the file's question had no pair of its own.
          const paired = QuestionInputSchema.safeParse({
            ...file.questions[p.question - 1]!,
            twin_qid: qids[p.asks_again - 1]!,
          });
          if (!paired.success) {
            const fields: Record<string, string[]> = {};
            for (const i of paired.error.issues) {
              (fields[String(i.path[0] ?? 'non_field_errors')] ??= []).push(
                `Question ${p.question}: ${i.message}`,
              );
            }
            throw new AppError('VALIDATION_FAILED', undefined, fields);
          }
          await this.updateQuestion(qids[p.question - 1]!, paired.data, actor, origin);
        }
      } catch (err) {
        // Nothing half-made stays: the draft goes again (unless someone published it meanwhile).
        if (await repo.deleteDraft(gid).catch(() => false)) {
          await changed(actor, 'survey.delete', `survey:${gid}`, { name: input.name });
        }
        throw err;
      }
      return load(gid, origin);
    },

    async orderSurveys(gids: string[], actor: Actor): Promise<AdminSurveyList> {
      const lower = gids.map((g) => g.toLowerCase());
      if (!(await repo.orderSurveys(lower))) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          gids: ['List each survey once; one of them no longer exists.'],
        });
      }
      await changed(actor, 'survey.order', 'surveys', { surveys: lower.length });
      return list();
    },

    async addQuestion(gid: string, input: QuestionInput, actor: Actor, origin: string) {
      if (!isUuid(gid)) throw new AppError('NOT_FOUND');
      const { values, labels, blank } = questionParts(input);
      if (input.twin_qid !== null) {
        const found = await repo.findSurvey(gid.toLowerCase());
        if (!found) throw new AppError('NOT_FOUND');
        if (found.survey.publishedAt) throw new AppError('ANSWERS_EXIST', PAIR_STARTS_TOGETHER);
        values.twinId = pairOf(input, null, labels, await repo.pairContext(found.survey.id));
      }
      const qid = await repo.addQuestion(gid.toLowerCase(), values, labels, blank).catch(pairTaken);
      if (!qid) throw new AppError('NOT_FOUND');
      await changed(actor, 'question.create', `question:${qid}`, {
        survey: gid.toLowerCase(),
        type: input.type,
      });
      return load(gid, origin);
    },

    async updateQuestion(qid: string, input: QuestionInput, actor: Actor, origin: string) {
      const { values, labels, blank } = questionParts(input);
      let before: { text: string; video1: string | null; video2: string | null } | undefined;
      const gid = await changeQuestion(qid, async (tx, found) => {
        const q = found.question;
        if (found.published && q.type !== input.type) {
          throw new AppError(
            'ANSWERS_EXIST',
            'This survey is published, so its questions keep their type: people may be answering this one now. Add a new question instead.',
          );
        }
        // Every choice of a published question is kept, answered or not, so the refusal says
        // nothing about which were picked.
        const kept = found.published ? await repo.choiceLabels(tx, q.id) : [];
        const missing = kept.filter((l) => l !== blank && !labels.includes(l));
        if (missing.length) {
          const one = missing.length === 1;
          throw new AppError(
            'ANSWERS_EXIST',
            `This survey is published, so its choices stay as they are: removing or renaming ${quoted(missing)} would change what people's answers mean. You can move ${one ? 'it' : 'them'}, and add new choices beside ${one ? 'it' : 'them'}.`,
          );
        }
        // Randomized response's estimates hold only for the design every answer was drawn
        // under: its weight and its number of choices (decision 028).
        if (found.published && (q.rrWeight ?? null) !== values.rrWeight) {
          throw new AppError(
            'ANSWERS_EXIST',
            "This survey is published, so whether this question randomizes the answer sent, and how strongly, stays as it is: people's answers were drawn under it. Add a new question instead.",
          );
        }
        const pairs = await repo.pairContext(q.surveyId, tx);
        values.twinId = pairOf(input, q.id, labels, pairs);
        if (found.published && (q.twinId ?? null) !== values.twinId) {
          throw new AppError('ANSWERS_EXIST', PAIR_STARTS_TOGETHER);
        }
        // A pair's two questions keep the same choices: the gap compares each answer's share.
        const asked = pairs.some((o) => o.twinId === q.id);
        const added = labels.filter((l) => !kept.includes(l));
        if (found.published && (q.rrWeight !== null || asked) && added.length) {
          throw new AppError(
            'ANSWERS_EXIST',
            q.rrWeight !== null
              ? 'This question randomizes the answer sent, so its choices stay as they are: the estimates rest on their number. Add a new question instead.'
              : 'This question is asked again with randomized response, so its choices stay as they are: the two are compared answer by answer. Add a new question instead.',
          );
        }
        before = { text: q.text, video1: q.videoLink1, video2: q.videoLink2 };
        await repo.updateQuestion(tx, q.id, values, labels, blank);
      }).catch(pairTaken);
      // What changed in the wording and the videos, which answers were given under, is kept.
      const details: Record<string, string | null> = { survey: gid };
      if (before && before.text !== values.text) {
        details.text_from = before.text;
        details.text_to = values.text;
      }
      if (before && (before.video1 !== values.videoLink1 || before.video2 !== values.videoLink2)) {
        details.videos_from = [before.video1, before.video2].filter(Boolean).join(' ') || null;
        details.videos_to =
          [values.videoLink1, values.videoLink2].filter(Boolean).join(' ') || null;
      }
      await changed(actor, 'question.update', `question:${qid.toLowerCase()}`, details);
      return load(gid, origin);
    },

    async deleteQuestion(qid: string, actor: Actor, origin: string) {
      const gid = await changeQuestion(qid, async (tx, found) => {
        if (found.published) {
          throw new AppError(
            'ANSWERS_EXIST',
            'This survey is published, so its questions stay: people may have answered this one. Close the survey instead if it should take no more answers.',
          );
        }
        await repo.deleteQuestion(tx, found.question.id, found.question.surveyId);
      });
      await changed(actor, 'question.delete', `question:${qid.toLowerCase()}`, {
        survey: gid,
      });
      return load(gid, origin);
    },

    async orderQuestions(gid: string, qids: string[], actor: Actor, origin: string) {
      if (!isUuid(gid)) throw new AppError('NOT_FOUND');
      const done = await repo.orderQuestions(
        gid.toLowerCase(),
        qids.map((q) => q.toLowerCase()),
      );
      if (done === undefined) throw new AppError('NOT_FOUND');
      if (!done) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          qids: ['List every question of this survey exactly once.'],
        });
      }
      await changed(actor, 'question.order', `survey:${gid.toLowerCase()}`);
      return load(gid, origin);
    },

    async listGenres(): Promise<AdminGenreList> {
      const rows = await repo.listGenres();
      return { results: rows.map(toGenre) };
    },

    async createGenre(input: GenreInput, actor: Actor): Promise<AdminGenre> {
      const gid = await repo.insertGenre(input.genre_name);
      if (!gid) throw nameTaken(input.genre_name);
      await changed(actor, 'genre.create', `genre:${gid}`, { name: input.genre_name });
      return toGenre((await repo.findGenre(gid))!);
    },

    async renameGenre(gid: string, input: GenreInput, actor: Actor): Promise<AdminGenre> {
      const before = isUuid(gid) ? await repo.findGenre(gid.toLowerCase()) : undefined;
      if (!before) throw new AppError('NOT_FOUND');
      // Checked first for the message; the unique index settles a race between two renames.
      const renamed = await repo
        .renameGenre(before.genre.gid, input.genre_name)
        .catch((err: unknown) => {
          if (sqlState(err) === UNIQUE_VIOLATION) return false;
          throw err;
        });
      if (!renamed) throw nameTaken(input.genre_name);
      await changed(actor, 'genre.rename', `genre:${before.genre.gid}`, {
        from: before.genre.name,
        to: input.genre_name,
      });
      return toGenre((await repo.findGenre(before.genre.gid))!);
    },

    /** Deletes a genre; surveys that had it simply lose it. */
    async deleteGenre(gid: string, actor: Actor): Promise<void> {
      const before = isUuid(gid) ? await repo.findGenre(gid.toLowerCase()) : undefined;
      if (!before || !(await repo.deleteGenre(before.genre.gid))) throw new AppError('NOT_FOUND');
      await changed(actor, 'genre.delete', `genre:${before.genre.gid}`, {
        name: before.genre.name,
        surveys: before.surveysCount,
      });
    },
  };
}

function toGenre(row: { genre: { gid: string; name: string }; surveysCount: number }): AdminGenre {
  return {
    unique_GID: row.genre.gid,
    genre_name: row.genre.name,
    surveys_count: row.surveysCount,
  };
}

const nameTaken = (name: string) =>
  new AppError('VALIDATION_FAILED', undefined, {
    genre_name: [`There is a genre called “${name}” already.`],
  });

export type AuthoringService = ReturnType<typeof createAuthoringService>;
