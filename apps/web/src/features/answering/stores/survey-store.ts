import type { AttemptedQuestion, Question } from '@candor/contracts';
import { create } from 'zustand';
import type { AnsweredQuestion } from '../lib/local-db';

interface SurveyState {
  /** The questions of the survey being answered, in the order they are asked. */
  openVideoSurveyQuestions: Question[];
  firstQuestionID: string | null;
  firstSurveyGID: string | null;
  firstQuestion: Question | null;
  firstQuestionError: string | null;
  isLoading: boolean;
  error: string | null;
  currentIndex: number;
  /** Answers given in this browser, appended as they are given. */
  answeredQuestions: AnsweredQuestion[];
  /** The member's answers known to the API, de-duplicated by qid. */
  myAttemptedQuestions: AttemptedQuestion[];
  /** Loads a survey's questions; a given first question is moved to the front. */
  loadQuestions: (gid: string, questions: Question[], firstQuestionID?: string | null) => void;
  setCurrentIndex: (index: number) => void;
  appendAnswered: (answer: AnsweredQuestion) => void;
  setAttempted: (attempted: AttemptedQuestion[]) => void;
  setError: (error: string | null) => void;
  reset: () => void;
}

const initial = {
  openVideoSurveyQuestions: [],
  firstQuestionID: null,
  firstSurveyGID: null,
  firstQuestion: null,
  firstQuestionError: null,
  isLoading: false,
  error: null,
  currentIndex: 0,
  answeredQuestions: [],
  myAttemptedQuestions: [],
} satisfies Partial<SurveyState>;

/** De-duplicates by qid, keeping the first occurrence. */
export function uniqueByQid<T extends { qid: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.qid) ? false : (seen.add(item.qid), true)));
}

/** The spec's survey store. */
export const useSurveyStore = create<SurveyState>()((set) => ({
  ...initial,

  loadQuestions(gid, questions, firstQuestionID = null) {
    const first = firstQuestionID ? questions.find((q) => q.qid === firstQuestionID) : undefined;
    set({
      firstSurveyGID: gid,
      firstQuestionID: first ? first.qid : null,
      firstQuestion: first ?? null,
      firstQuestionError:
        firstQuestionID && !first ? 'That question is not part of this survey.' : null,
      openVideoSurveyQuestions: first
        ? [first, ...questions.filter((q) => q.qid !== first.qid)]
        : questions,
      isLoading: false,
      error: null,
    });
  },
  setCurrentIndex: (currentIndex) => set({ currentIndex }),
  appendAnswered: (answer) => set((s) => ({ answeredQuestions: [...s.answeredQuestions, answer] })),
  setAttempted: (attempted) => set({ myAttemptedQuestions: uniqueByQid(attempted) }),
  setError: (error) => set({ error, isLoading: false }),
  reset: () => set(initial),
}));
