import { CODEBOOK_FORMAT, LEAVE_BLANK_CHOICE, type SurveyCodebook } from '@candor/contracts';
import { DOMINANCE, MIN_ROW_TOTAL, PARAMETERS } from '../results/privacy.js';
import type { StaffSurvey } from '../surveys/surveys.service.js';

/** The CSV export's columns, in order, with what each holds: the one list of them. */
export const CSV_COLUMNS: ReadonlyArray<{ name: string; meaning: string }> = [
  { name: 'question_position', meaning: 'The question’s place in the survey (1 is first).' },
  { name: 'qid', meaning: 'The question’s id (as in the codebook’s questions).' },
  { name: 'question', meaning: 'The question’s text.' },
  {
    name: 'breakdown',
    meaning: '"all" for everyone who answered, else the group dimension: gender, age or country.',
  },
  { name: 'group', meaning: 'The group within the breakdown (empty for "all").' },
  {
    name: 'choice',
    meaning: `The choice’s label; "${LEAVE_BLANK_CHOICE}" for answers left blank; "Written answer" for an open question’s written answers.`,
  },
  {
    name: 'count',
    meaning:
      'About how many chose it: a published count with privacy noise added, never the true count. Empty when suppressed.',
  },
  {
    name: 'percent',
    meaning: 'The share of the row’s respondents, 0 to 100, one decimal. Empty when suppressed.',
  },
  {
    name: 'margin',
    meaning:
      'The 95% interval’s half-width in points: the share is within percent ± margin 95 times in 100 (sampling and privacy noise together).',
  },
  {
    name: 'sampling_margin',
    meaning: 'The part of the margin from sampling (a Jeffreys credibility interval), in points.',
  },
  {
    name: 'privacy_margin',
    meaning:
      'The part of the margin from the privacy noise, in points (margin² = sampling_margin² + privacy_margin²).',
  },
  {
    name: 'respondents',
    meaning: 'About how many people the row counts (noisy): the base of its percentages.',
  },
  {
    name: 'rr_weight',
    meaning:
      'Randomized-response questions only: the weight m of a truthful answer; the counts are then estimates of the true shares.',
  },
  {
    name: 'sent_count',
    meaning: 'Randomized-response questions only: about how many sent this answer (noisy).',
  },
  { name: 'sent_percent', meaning: 'Randomized-response questions only: the sent share.' },
  { name: 'sent_margin', meaning: 'Randomized-response questions only: the sent share’s margin.' },
  {
    name: 'gap_points',
    meaning:
      'Honesty-gap pairs only (overall rows): the points by which the randomized-response estimate exceeds the direct answer.',
  },
  { name: 'gap_low', meaning: 'Honesty-gap pairs only: the 95% interval’s lower end, in points.' },
  { name: 'gap_high', meaning: 'Honesty-gap pairs only: the 95% interval’s upper end, in points.' },
];

/** The codebook of a survey's export: what every figure and column means, and how it was made. */
export function codebookOf(survey: StaffSurvey): SurveyCodebook {
  return {
    format: CODEBOOK_FORMAT,
    survey: {
      gid: survey.gid,
      name: survey.name,
      question_order: survey.randomiseQuestions ? 'shuffled per person' : 'as authored',
    },
    questions: survey.questions.map(({ position, text, catalog: q }) => {
      let code = 0;
      return {
        position,
        qid: q.qid,
        question: text,
        type: q.type,
        choices: q.choices.map((c) => ({
          code: c.isBlank ? ('blank' as const) : ++code,
          label: c.label,
        })),
        max_length: q.maxLength,
        asked: 'Everyone who reached it (no show-if logic).',
        rr_weight: q.rrWeight,
        honesty_gap_pair: q.twinQid,
      };
    }),
    privacy: {
      mechanism:
        'Each question’s counts are released in periods: discrete Gaussian noise on every published count ' +
        '(cumulative, per cell), a period ending when a noisy count of new answers passes a threshold ' +
        '(Laplace noise, epsilon split between threshold and query) that doubles each period. Rows below ' +
        'min_row_total, or where one answer holds dominance or more, are not shown split.',
      noise_variance: {
        all: PARAMETERS.sigma2.all,
        gender: PARAMETERS.sigma2.gender,
        age: PARAMETERS.sigma2.age,
        country: PARAMETERS.sigma2.country,
        ratings: PARAMETERS.ratingSigma2,
        timings: PARAMETERS.timingSigma2,
        words: PARAMETERS.wordSigma2,
      },
      trigger_epsilon: PARAMETERS.triggerEpsilon,
      first_threshold: PARAMETERS.firstThreshold,
      events_per_person: PARAMETERS.eventsPerPerson,
      delta: PARAMETERS.delta,
      min_row_total: MIN_ROW_TOTAL,
      dominance: DOMINANCE,
      words_per_answer: PARAMETERS.wordsPerAnswer,
    },
    intervals: {
      level: 0.95,
      method:
        'A credibility interval for an opt-in sample: the variance of a Jeffreys posterior Beta(x + 1/2, n − x + 1/2) ' +
        'for the share, plus the privacy noise’s variance (delta method), both from published values; the ' +
        'margin is 1.96 times the root of their sum. Unweighted: it speaks for people like those who answered, ' +
        'not for a population.',
    },
    csv_columns: [...CSV_COLUMNS],
  };
}
