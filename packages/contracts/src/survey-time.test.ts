import { describe, expect, it } from 'vitest';
import {
  SURVEY_TIME,
  type TimedQuestion,
  surveyMinutes,
  surveySeconds,
  timerSeconds,
} from './survey-time.js';

const closed = (over: Partial<TimedQuestion> = {}): TimedQuestion => ({
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  ...over,
});
const open = (over: Partial<TimedQuestion> = {}) => closed({ type: 'Open', ...over });
const times = (n: number, q: TimedQuestion) => Array.from({ length: n }, () => q);

describe('survey time estimate', () => {
  it('reads H:MM:SS timers, and none for 0:00:00 or a malformed one', () => {
    expect(timerSeconds('0:00:30')).toBe(30);
    expect(timerSeconds('1:02:05')).toBe(3725);
    expect(timerSeconds('0:00:00')).toBe(0);
    expect(timerSeconds('30')).toBe(0);
  });

  it('adds per question its answering, a glance at its graph, and its videos', () => {
    const perClosed = SURVEY_TIME.closed + SURVEY_TIME.graph;
    expect(surveySeconds([closed()])).toBe(perClosed);
    expect(surveySeconds([open()])).toBe(SURVEY_TIME.open + SURVEY_TIME.graph);
    expect(surveySeconds([closed({ video_link_1: 'a.mp4' })])).toBe(perClosed + SURVEY_TIME.video);
    expect(surveySeconds([closed({ video_link_1: 'a.mp4', video_link_2: 'b.mp4' })])).toBe(
      perClosed + 2 * SURVEY_TIME.video,
    );
  });

  it('never counts more answering time than the question’s timer allows', () => {
    // A 5-second timer: at most 5 s to answer, whatever the question.
    expect(surveySeconds([open({ timer_length: '0:00:05' })])).toBe(5 + SURVEY_TIME.graph);
    // A timer longer than the answer takes changes nothing.
    expect(surveySeconds([closed({ timer_length: '0:00:30' })])).toBe(
      SURVEY_TIME.closed + SURVEY_TIME.graph,
    );
  });

  it('says whole minutes, at least one, for the sample surveys’ shapes', () => {
    expect(surveyMinutes([])).toBe(0);
    expect(surveyMinutes([closed()])).toBe(1);
    // Time Travel: 3 video questions.
    expect(surveyMinutes(times(3, closed({ video_link_1: 'v.mp4' })))).toBe(3);
    // Everyday Taboos: 24 closed and 1 written.
    expect(surveyMinutes([...times(24, closed()), open()])).toBe(8);
    // Life and Death: 33 closed and 2 written.
    expect(surveyMinutes([...times(33, closed()), open(), open()])).toBe(12);
  });
});
