import { type AdminQuestion, QuestionInputSchema, UPLOAD_MAX_BYTES } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import {
  fromLocalInput,
  imageProblem,
  readSurveyFile,
  isLocked,
  joinVariant,
  moveItem,
  newQuestionValues,
  questionInput,
  questionValues,
  sameOrder,
  splitVariant,
  toLocalInput,
} from './authoring';

describe('moveItem', () => {
  it('moves an item up or down one place and leaves the input alone', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 2, -1)).toEqual(['a', 'c', 'b', 'd']);
    expect(moveItem(list, 0, 1)).toEqual(['b', 'a', 'c', 'd']);
    expect(moveItem(list, 1, 2)).toEqual(['a', 'c', 'd', 'b']);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps the order when the move would leave the list', () => {
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 5, -1)).toEqual(['a', 'b']);
  });

  it('tells whether an order changed', () => {
    expect(sameOrder(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameOrder(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameOrder(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('release date on the local clock', () => {
  it('writes the browser offset of that day, and reads back the same instant', () => {
    const iso = fromLocalInput('2026-03-01T09:30')!;
    expect(iso).toMatch(/^2026-03-01T09:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(iso).getTime()).toBe(new Date(2026, 2, 1, 9, 30).getTime());
    expect(toLocalInput(iso)).toBe('2026-03-01T09:30');
    // Summer and winter may differ in offset: each date gets its own.
    const summer = fromLocalInput('2026-07-15T23:05:10')!;
    expect(new Date(summer).getTime()).toBe(new Date(2026, 6, 15, 23, 5, 10).getTime());
  });

  it('shows an API date (any offset) on the local clock', () => {
    const instant = new Date(Date.UTC(2026, 0, 31, 22, 15));
    const local = toLocalInput('2026-01-31T22:15:00Z');
    const two = (n: number) => String(n).padStart(2, '0');
    expect(local).toBe(
      `${instant.getFullYear()}-${two(instant.getMonth() + 1)}-${two(instant.getDate())}` +
        `T${two(instant.getHours())}:${two(instant.getMinutes())}`,
    );
    expect(new Date(fromLocalInput(local)!).getTime()).toBe(instant.getTime());
  });

  it('refuses what is not a date and time', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2026-02-30T10:00')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
    expect(toLocalInput('nonsense')).toBe('');
  });
});

describe('imageProblem', () => {
  it('accepts the four image types up to 5 MB', () => {
    expect(imageProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(imageProblem({ type: 'image/webp', size: UPLOAD_MAX_BYTES })).toBeNull();
  });

  it('says what is wrong with any other file, before it is sent', () => {
    expect(imageProblem({ type: 'application/pdf', size: 1000 })).toBe(
      'Choose a JPEG, PNG, WebP or GIF image.',
    );
    expect(imageProblem({ type: 'image/svg+xml', size: 1000 })).toMatch(/JPEG, PNG/);
    expect(imageProblem({ type: 'image/jpeg', size: 7.25 * 1024 * 1024 })).toBe(
      'That image is 7.3 MB: images can be at most 5.0 MB.',
    );
    expect(imageProblem({ type: 'image/gif', size: 0 })).toBe('That file is empty.');
  });
});

describe('variant', () => {
  it('splits into feedback and brick size, and joins back', () => {
    expect(splitVariant('v2_small')).toEqual({ feedback: 'v2', size: 'small' });
    expect(joinVariant('v1', 'large')).toBe('v1_large');
  });
});

const saved: AdminQuestion = {
  qid: '00000000-0000-4000-8000-000000000001',
  position: 1,
  type: 'Closed',
  question: 'Would you?',
  choices: ['Yes', 'No', 'Maybe'],
  randomise_answers: false,
  timer_seconds: 30,
  video_link_1: 'https://youtu.be/dQw4w9WgXcQ',
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
  answers_count: 12,
  locked: true,
  locked_choices: ['Yes'],
};

describe('question form values', () => {
  it('locks only the saved choices that stay, wherever they move', () => {
    const rows = questionValues(saved).choices;
    expect(rows.map((r) => isLocked(r, saved.locked_choices))).toEqual([true, false, false]);
    expect(isLocked({ label: 'Yes', original: null }, ['Yes'])).toBe(false);
  });

  it('turns a saved question into the same input again', () => {
    expect(questionInput(questionValues(saved))).toEqual({
      type: 'Closed',
      question: 'Would you?',
      choices: ['Yes', 'No', 'Maybe'],
      randomise_answers: false,
      timer_seconds: 30,
      video_link_1: 'https://youtu.be/dQw4w9WgXcQ',
      video_link_2: null,
      video_captions_1: null,
      video_captions_2: null,
      max_length: null,
      rr_weight: null,
      twin_qid: null,
    });
    const randomized = { ...saved, rr_weight: 9 };
    expect(questionInput(questionValues(randomized)).rr_weight).toBe(9);
    // A pair is kept with its randomized question, and dropped once it no longer randomizes.
    const paired = questionValues({ ...randomized, twin_qid: saved.qid });
    expect(questionInput(paired).twin_qid).toBe(saved.qid);
    expect(questionInput({ ...paired, rr_weight: '' }).twin_qid).toBeNull();
  });

  it('sends an open question without choices, blanks as null, and passes the contract', () => {
    const values = {
      ...newQuestionValues(),
      type: 'Open' as const,
      question: '  What scares you?  ',
      timer_seconds: '',
      max_length: '280',
      // Left over from when it was closed: an open question never randomizes.
      rr_weight: '9',
      video_link_1: '   ',
    };
    const input = questionInput(values);
    expect(input).toMatchObject({
      question: 'What scares you?',
      choices: [],
      timer_seconds: 0,
      max_length: 280,
      rr_weight: null,
      video_link_1: null,
    });
    expect(QuestionInputSchema.safeParse(input).success).toBe(true);
  });
});

describe('readSurveyFile', () => {
  const file = {
    format: 'candor.survey/1',
    survey: { name: 'Night owls', genres: ['Sleep'] },
    questions: [
      { type: 'Closed', question: 'Awake at 3?', choices: ['Yes', 'No'] },
      { type: 'Open', question: 'Why?' },
    ],
    pairs: [],
  };

  it('reads a survey file as it is', () => {
    expect(readSurveyFile(JSON.stringify(file))).toEqual({ file, problems: null });
  });

  it('says what is wrong, where, each once', () => {
    expect(readSurveyFile('{"format":')).toEqual({
      file: null,
      problems: ['This file is not a survey file: it is not JSON.'],
    });
    expect(readSurveyFile(JSON.stringify({ format: 'typeform' })).problems).toEqual([
      'This is not a Candor survey file (candor.survey/1).',
    ]);
    expect(readSurveyFile(JSON.stringify({ format: 'candor.survey/1' })).problems).toEqual([
      'The file has no survey part.',
      'The file has no list of questions.',
    ]);
    const broken = {
      ...file,
      questions: [file.questions[0], { type: 'Closed', question: 'Which?', choices: ['', ''] }],
      pairs: [{ question: 0, asks_again: 1 }],
      answers: [],
    };
    expect(readSurveyFile(JSON.stringify(broken)).problems).toEqual([
      'Question 2: Choices cannot be empty.',
      'Pair 1: Questions are numbered from 1.',
      'The file holds something a survey file does not: answers.',
    ]);
  });
});
