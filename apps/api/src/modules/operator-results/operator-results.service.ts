import {
  type Breakdown,
  type BreakdownDimension,
  type ChoiceResult,
  LEAVE_BLANK_CHOICE,
  type OperatorQuestionResults,
  type QuestionResults,
  type ReachStep,
  type SurveyExport,
  type SurveyReach,
  marginPoints,
  samplingVariance,
} from '@candor/contracts';
import { AppError } from '../../lib/app-error.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { marginOfVariance } from '../results/privacy.js';
import type { ResultsService } from '../results/results.service.js';
import type { StaffSurvey, SurveysService } from '../surveys/surveys.service.js';
import { CSV_COLUMNS, codebookOf } from './codebook.js';

const DIMENSIONS = ['gender', 'age', 'country'] as const satisfies BreakdownDimension[];
/** The row of an open question's written (not blank) answers in the CSV. */
export const WRITTEN_ANSWER = 'Written answer';

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/**
 * A cell as a spreadsheet will not run it: text (not a number) starting with = + - @ (or a tab or CR) is a
 * formula to Excel and LibreOffice, so it gets a leading quote; then RFC 4180 quoting.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  // A number is data, never a formula: a negative gap stays a number.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

type Cell = string | number | null;
/** The researcher token an export was read with (decision 031). */
interface TokenUse {
  id: string;
  name: string;
}

/** One outcome of a row: a choice (or written / blank), its numbers, what devices sent. */
interface OutcomeLine {
  choice: string;
  count: number | null;
  percent: number | null;
  margin: number | null;
  /** Randomized-response questions: what devices sent, the numbers above being estimates. */
  sent: ChoiceResult['sent'];
}

/** The published numbers of one row (overall or a group), one line per outcome. */
function outcomeLines(
  type: QuestionResults['type'],
  row: Pick<QuestionResults, 'respondents' | 'blank' | 'choices' | 'margin'>,
): OutcomeLine[] {
  if (type === 'Closed') return row.choices;
  // Open questions publish respondents and blank (both noisy); written = respondents - blank.
  // Their two shares have one margin (the row's: written and blank are each other's rest).
  const { respondents: total, blank, margin } = row;
  const written = total !== null && blank !== null ? Math.max(0, total - blank) : null;
  const percent = (n: number | null) =>
    n === null || total === null ? null : total > 0 ? oneDecimal((n / total) * 100) : 0;
  return [
    { choice: WRITTEN_ANSWER, count: written, percent: percent(written), margin, sent: null },
    { choice: LEAVE_BLANK_CHOICE, count: blank, percent: percent(blank), margin, sent: null },
  ];
}

/**
 * The CSV cells of one outcome line after its group's columns: its numbers, its margin's two
 * parts and the row's respondents, then randomized response's weight and what was sent. An
 * estimate's margin is the sent share's divided by the same factor, so its parts are the sent
 * share's parts scaled to it.
 */
export function lineCells(
  line: OutcomeLine,
  respondents: number | null,
  rrWeight: number | null,
): Cell[] {
  const { choice, count, percent, margin, sent } = line;
  let parts = marginParts(percent, margin, respondents);
  if (sent && margin !== null && sent.margin) {
    const scale = margin / sent.margin;
    const [sampling, privacy] = marginParts(sent.percent, sent.margin, respondents);
    parts = [
      sampling === null ? null : oneDecimal(sampling * scale),
      privacy === null ? null : oneDecimal(privacy * scale),
    ];
  }
  return [
    choice,
    count,
    percent,
    margin,
    ...parts,
    respondents,
    rrWeight,
    sent?.count ?? null,
    sent?.percent ?? null,
    sent?.margin ?? null,
  ];
}

/**
 * A published margin split into its two parts (decision 027), from published values only: the
 * sampling part of a share of `respondents` people, and the privacy noise's part, what is left
 * of the margin when the sampling part is taken out (margins add as variances). Null where the
 * share is not shown.
 */
export function marginParts(
  percent: number | null,
  margin: number | null,
  respondents: number | null,
): [sampling: number | null, privacy: number | null] {
  if (percent === null || margin === null || respondents === null || respondents <= 0) {
    return [null, null];
  }
  const sampling = Math.min(margin, marginOfVariance(samplingVariance(percent / 100, respondents)));
  return [sampling, oneDecimal(Math.sqrt(Math.max(0, margin ** 2 - sampling ** 2)))];
}

export interface OperatorResultsServiceDeps {
  results: Pick<ResultsService, 'forQuestion' | 'figuresOf' | 'reachOf'>;
  surveys: Pick<SurveysService, 'findQuestion' | 'findAnySurvey'>;
  audit: Pick<AuditService, 'record'>;
  clock?: () => Date;
}

/**
 * Operators' view of results: the published (noisy) numbers members see, never true counts,
 * plus answer times and ratings from the same snapshot; survey exports are audited.
 */
export function createOperatorResultsService(deps: OperatorResultsServiceDeps) {
  const clock = deps.clock ?? (() => new Date());

  async function surveyOf(gid: string): Promise<StaffSurvey> {
    const survey = await deps.surveys.findAnySurvey(gid);
    if (!survey) throw new AppError('NOT_FOUND');
    return survey;
  }

  /** The export of a survey: every question's published results, overall and per dimension. */
  async function build(survey: StaffSurvey): Promise<SurveyExport> {
    const questions = await Promise.all(
      survey.questions.map(async ({ position, text, catalog }) => {
        const [results, ...split] = await Promise.all([
          deps.results.forQuestion(catalog),
          ...DIMENSIONS.map((d) => deps.results.forQuestion(catalog, d)),
        ]);
        const breakdownOf = (i: number): Breakdown =>
          split[i]!.breakdown ?? { dimension: DIMENSIONS[i]!, groups: [] };
        return {
          qid: catalog.qid,
          position,
          question: text,
          type: catalog.type,
          results,
          breakdowns: { gender: breakdownOf(0), age: breakdownOf(1), country: breakdownOf(2) },
        };
      }),
    );
    return {
      gid: survey.gid,
      name: survey.name,
      exported_at: clock().toISOString(),
      questions,
      codebook: codebookOf(survey),
    };
  }

  function fileName(survey: StaffSurvey, extension: string) {
    const slug = survey.slug.toLowerCase().replace(/[^a-z0-9-]+/g, '');
    return `candor-${slug || survey.gid}.${extension}`;
  }

  return {
    /** The published results of a listed question (even before any answer), quality, ratings. */
    async forQuestion(
      qid: string,
      dimension: BreakdownDimension | undefined,
    ): Promise<OperatorQuestionResults> {
      const q = await deps.surveys.findQuestion(qid);
      if (!q) throw new AppError('NOT_FOUND');
      const [results, f] = await Promise.all([
        deps.results.forQuestion(q, dimension),
        deps.results.figuresOf(q),
      ]);
      return {
        ...results,
        quality: {
          timed_answers: f.timings.timed,
          answer_time_median_ms: f.timings.medianMs,
          fast_share: f.timings.fastShare,
        },
        ratings: { count: f.ratings.count, mean: f.ratings.mean },
      };
    },

    /**
     * How far people got through survey `gid` (any status): each place's published number of
     * people, its share of the first place's, and a typical time for the whole survey. An
     * honesty-gap pair is one place (each person is asked one of its two questions): its two
     * counts add up, and so do their noise variances.
     */
    async reach(gid: string): Promise<SurveyReach> {
      const survey = await surveyOf(gid);
      const byQid = new Map(survey.questions.map((q) => [q.catalog.qid, q]));
      const places = survey.questions.filter(
        (q) =>
          q.catalog.twinQid === null ||
          q.catalog.rrWeight === null ||
          !byQid.has(q.catalog.twinQid),
      );
      const figures = await Promise.all(
        places.map(async (place) => {
          const twin =
            place.catalog.twinQid === null ? undefined : byQid.get(place.catalog.twinQid);
          const parts = [place, ...(twin ? [twin] : [])];
          const [reaches, own] = await Promise.all([
            Promise.all(parts.map((p) => deps.results.reachOf(p.catalog))),
            // A pair's halves are answered alike; the direct one's time stands for the place.
            deps.results.figuresOf(place.catalog),
          ]);
          // A pair is shown once both halves are: half of it alone would not be the place.
          const shown = reaches.every((r) => r !== null);
          return {
            place,
            twin,
            // A pair's place is where its earlier question stands (people meet one or the other).
            position: Math.min(place.position, twin?.position ?? Infinity),
            total: shown ? reaches.reduce((a, r) => a + r.total, 0) : null,
            variance: shown ? reaches.reduce((a, r) => a + r.variance, 0) : 0,
            medianMs: own.timings.medianMs,
          };
        }),
      );
      // In the order people meet the places: a pair whose randomized half comes first leads.
      figures.sort((a, b) => a.position - b.position);
      const first = figures[0];
      // A share of a count whose own noise is large is no share (the delta method fails there):
      // shown once the first count's noise is at most a fifth of it (coefficient of variation).
      const comparable = first?.total != null && Math.sqrt(first.variance) <= first.total * 0.2;
      const steps = figures.map((f): ReachStep => {
        let kept: number | null = null;
        let keptMargin: number | null = null;
        if (f.total !== null && first?.total && comparable) {
          const t1 = first.total;
          kept = f.total / t1;
          // r = T / T1, the two counts' noise independent (the first's own: r = 1, exactly).
          const variance =
            f === first ? 0 : f.variance / t1 ** 2 + (f.total ** 2 * first.variance) / t1 ** 4;
          keptMargin = oneDecimal(marginPoints(variance));
        }
        return {
          qid: f.place.catalog.qid,
          position: f.position,
          question: f.place.text,
          pair_qid: f.twin?.catalog.qid ?? null,
          respondents: f.total === null ? null : Math.max(0, Math.round(f.total)),
          respondents_margin: f.total === null ? null : Math.round(marginPoints(f.variance) / 100),
          kept_percent: kept === null ? null : Math.max(0, oneDecimal(kept * 100)),
          kept_margin: keptMargin,
          answer_time_median_ms: f.medianMs,
        };
      });
      const medians = steps.map((s) => s.answer_time_median_ms);
      return {
        gid: survey.gid,
        shuffled: survey.randomiseQuestions,
        steps,
        typical_time_ms:
          medians.length > 0 && medians.every((m) => m !== null)
            ? Math.round(medians.reduce((a, m) => a + m, 0))
            : null,
      };
    },

    /**
     * The JSON export of a survey (any status); audited as `results.export`, with the name of
     * the researcher token it was read with (`token`), if any.
     */
    async exportJson(gid: string, actor: Actor, token?: TokenUse) {
      const survey = await surveyOf(gid);
      const body = await build(survey);
      await deps.audit.record(actor, 'results.export', `survey:${survey.gid}`, {
        format: 'json',
        ...(token === undefined ? {} : { token: token.name, token_id: token.id }),
      });
      return { body, fileName: fileName(survey, 'json') };
    },

    /** The codebook of a survey's exports (what every column and figure means); not audited. */
    async codebook(gid: string) {
      const survey = await surveyOf(gid);
      return { body: codebookOf(survey), fileName: fileName(survey, 'codebook.json') };
    },

    /** The CSV export of a survey (any status), formula-safe; audited as `results.export`. */
    async exportCsv(gid: string, actor: Actor, token?: TokenUse) {
      const survey = await surveyOf(gid);
      const data = await build(survey);
      const lines: Cell[][] = [CSV_COLUMNS.map((c) => c.name)];
      for (const q of data.questions) {
        const head = [q.position, q.qid, q.question];
        const total = q.results.respondents;
        const rr = q.results.rr_weight;
        const gaps = q.results.honesty_gap?.choices ?? [];
        for (const line of outcomeLines(q.type, q.results)) {
          // A pair's gap (decision 029) on each of its questions' overall rows.
          const gap = gaps.find((g) => g.choice === line.choice);
          lines.push([
            ...head,
            'all',
            '',
            ...lineCells(line, total, rr),
            gap?.points ?? null,
            gap?.low ?? null,
            gap?.high ?? null,
          ]);
        }
        for (const dimension of DIMENSIONS) {
          for (const group of q.breakdowns[dimension].groups) {
            for (const line of outcomeLines(q.type, group)) {
              lines.push([
                ...head,
                dimension,
                group.key,
                ...lineCells(line, group.respondents, rr),
                null,
                null,
                null,
              ]);
            }
          }
        }
      }
      const body = lines.map((cells) => cells.map(csvCell).join(',') + '\r\n').join('');
      await deps.audit.record(actor, 'results.export', `survey:${survey.gid}`, {
        format: 'csv',
        ...(token === undefined ? {} : { token: token.name, token_id: token.id }),
      });
      return { body, fileName: fileName(survey, 'csv') };
    },
  };
}

export type OperatorResultsService = ReturnType<typeof createOperatorResultsService>;
