// The keyboard on the answering screens (decision 016): keys pick, Enter goes on once, a pick
// stays marked a moment before the screen goes on, and keys typed elsewhere never answer.
import { LEAVE_BLANK_CHOICE, type Question } from '@candor/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADVANCE_MS, ENTER_ARMS_AFTER_MS } from '../lib/keys';
import { FeedbackScreen } from './feedback-screen';
import { QuestionScreen, type AnswerInput } from './question-screen';

const closed: Question = {
  qid: '00000000-0000-4000-8000-000000000002',
  question: 'Would you look?',
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', 'Maybe', LEAVE_BLANK_CHOICE],
  randomise_answers: false,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
};

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'Date', 'performance'],
  });
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

/** Lets awaited promises (the recorded answer) settle, then moves the clock on. */
async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element | Window = window) =>
  void act(() => void fireEvent.keyDown(target, { key, ...init }));

function question(overrides: Partial<Question> = {}, record = true) {
  const onAnswer = vi.fn((_input: AnswerInput) => Promise.resolve(record));
  const onNext = vi.fn();
  const q = { ...closed, ...overrides };
  const view = render(
    <QuestionScreen
      question={q}
      choices={q.choices}
      number={1}
      total={3}
      busy={false}
      onAnswer={onAnswer}
      onNext={onNext}
    />,
  );
  return { onAnswer, onNext, view };
}

describe('keys on a question', () => {
  it('picks the nth choice with its letter or its number, and shows the letter on each choice', async () => {
    const { onAnswer } = question();
    const answers = screen.getByRole('list', { name: 'Answers' });
    // The badge is for the eyes (drawn from data-key by the style sheet): the button's name and
    // text stay the answer, and its keys are announced.
    const no = within(answers).getByRole('button', { name: 'No' });
    expect(no.dataset.key).toBe('B');
    expect(no.textContent).toBe('No');
    expect(no.getAttribute('aria-keyshortcuts')).toBe('B 2');
    expect(
      within(answers)
        .getByRole('button', { name: 'Leave blank' })
        .getAttribute('aria-keyshortcuts'),
    ).toBe('D 4');

    press('b');
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({
      choice: 'No',
      answer: 'No',
      isBlank: false,
      position: 1,
    });
    expect(no.getAttribute('aria-pressed')).toBe('true');
    // One answer: later keys, and a tap, change nothing.
    press('a');
    press('3');
    fireEvent.click(within(answers).getByRole('button', { name: 'Yes' }));
    await pass(ADVANCE_MS);
    expect(onAnswer).toHaveBeenCalledTimes(1);
  });

  it('picks by number, a capital letter, and the leave-blank choice by its key', () => {
    const byNumber = question();
    press('3');
    expect(byNumber.onAnswer).toHaveBeenCalledWith({
      choice: 'Maybe',
      answer: 'Maybe',
      isBlank: false,
      position: 2,
    });
    byNumber.view.unmount();

    const byCapital = question();
    press('D', { shiftKey: true });
    expect(byCapital.onAnswer).toHaveBeenCalledWith({
      choice: LEAVE_BLANK_CHOICE,
      answer: '',
      isBlank: true,
    });
  });

  it('ignores keys past the last choice, and keys with Ctrl, Alt or Meta, and held keys', () => {
    const { onAnswer } = question();
    press('e');
    press('9');
    press('a', { ctrlKey: true });
    press('a', { metaKey: true });
    press('a', { altKey: true });
    press('b', { repeat: true });
    press('Enter');
    expect(onAnswer).not.toHaveBeenCalled();
    press('a');
    expect(onAnswer).toHaveBeenCalledTimes(1);
  });

  it('ignores keys typed in a text field, or while focus is elsewhere on the page', () => {
    const { onAnswer } = question();
    const outside = document.createElement('div');
    outside.innerHTML = '<input aria-label="Search" /><a href="/">Home</a>';
    document.body.append(outside);
    try {
      const search = screen.getByRole('textbox', { name: 'Search' });
      search.focus();
      press('a', {}, search);
      // Focus on the navbar's link: the person is not on the question.
      screen.getByRole('link', { name: 'Home' }).focus();
      press('b', {}, document.activeElement!);
      expect(onAnswer).not.toHaveBeenCalled();
      // Back on the question (its heading), the key answers.
      screen.getByRole('heading', { level: 1 }).focus();
      press('b', {}, document.activeElement!);
      expect(onAnswer).toHaveBeenCalledTimes(1);
    } finally {
      outside.remove();
    }
  });

  it('never answers an open question from a key: the letters are its text', () => {
    const { onAnswer } = question({ type: 'Open', choices: [], max_length: 50 });
    const box = screen.getByLabelText('Your answer');
    box.focus();
    press('a', {}, box);
    press('1', {}, box);
    press('Enter', {}, box);
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: 'a1' } });
    // Ctrl + Enter sends it (Enter alone is a new line).
    press('Enter', { ctrlKey: true }, box);
    expect(onAnswer).toHaveBeenCalledWith({ text: 'a1', answer: 'a1', isBlank: false });
  });

  it('shows the pick a moment, then goes on once', async () => {
    const { onNext } = question();
    press('a');
    await pass(ADVANCE_MS - 50);
    expect(onNext).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Yes' }).className).toContain('answer--picked');
    await pass(100);
    expect(onNext).toHaveBeenCalledTimes(1);
    await pass(2000);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('lets the person pick again when the answer could not be kept', async () => {
    const { onAnswer, onNext } = question({}, false);
    press('a');
    await pass(ADVANCE_MS);
    expect(onNext).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed')).toBe('false');
    press('b');
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });
});

function feedback(askRating = true) {
  const onRate = vi.fn();
  const onNext = vi.fn();
  const queryClient = new QueryClient();
  const wrap = (rating: number | null): ReactNode => (
    <QueryClientProvider client={queryClient}>
      <FeedbackScreen
        question={closed}
        number={1}
        total={3}
        mine={{ answer: 'Yes', isBlank: false }}
        timedOut={false}
        results={null}
        answeredAt={null}
        withGraph={false}
        member
        offline={false}
        sent
        visitorLeft={null}
        askRating={askRating}
        rating={rating}
        onRate={(score: number) => {
          onRate(score);
          view.rerender(wrap(score));
        }}
        onNext={onNext}
      />
    </QueryClientProvider>
  );
  const view = render(wrap(null));
  return { onRate, onNext, view };
}

describe('keys on the rating', () => {
  it('rates with a digit, shows it a moment, then goes on with it', async () => {
    const { onRate, onNext } = feedback();
    press('7');
    expect(onRate).toHaveBeenLastCalledWith(7);
    expect(screen.getByRole('radio', { name: '7' })).toHaveProperty('checked', true);
    expect(onNext).not.toHaveBeenCalled();
    await pass(ADVANCE_MS);
    expect(onNext).toHaveBeenCalledExactlyOnceWith(7);
  });

  it('reads 1 then 0 as ten', async () => {
    const { onNext } = feedback();
    press('1');
    await pass(200);
    press('0');
    await pass(ADVANCE_MS);
    expect(onNext).toHaveBeenCalledExactlyOnceWith(10);
  });

  it('goes on when a score is tapped, but not while arrow keys move through the scores', async () => {
    const { onRate, onNext, view } = feedback();
    const five = screen.getByRole('radio', { name: '5' });
    fireEvent.keyDown(five, { key: 'ArrowRight' });
    fireEvent.click(screen.getByRole('radio', { name: '6' }));
    expect(onRate).toHaveBeenLastCalledWith(6);
    await pass(ADVANCE_MS * 3);
    expect(onNext).not.toHaveBeenCalled();
    // Enter on the chosen score goes on with it.
    const six = screen.getByRole('radio', { name: '6' });
    six.focus();
    press('Enter', {}, six);
    expect(onNext).toHaveBeenCalledExactlyOnceWith(6);
    view.unmount();

    // A tap on the score the arrows chose picks it (no change event: it is checked already).
    const moved = feedback();
    fireEvent.keyDown(screen.getByRole('radio', { name: '2' }), { key: 'ArrowRight' });
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    await pass(ADVANCE_MS);
    expect(moved.onNext).not.toHaveBeenCalled();
    fireEvent.pointerDown(screen.getByRole('radio', { name: '3' }));
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    await pass(ADVANCE_MS);
    expect(moved.onNext).toHaveBeenCalledExactlyOnceWith(3);
    moved.view.unmount();

    const other = feedback();
    const eight = screen.getByRole('radio', { name: '8' });
    fireEvent.pointerDown(eight);
    fireEvent.click(eight);
    await pass(ADVANCE_MS);
    expect(other.onNext).toHaveBeenCalledExactlyOnceWith(8);
  });

  it('on a screen without the rating, digits do nothing and Next goes on with no score', async () => {
    const { onRate, onNext } = feedback(false);
    expect(screen.queryByRole('radiogroup')).toBeNull();
    press('7');
    await pass(ADVANCE_MS * 2);
    expect(onRate).not.toHaveBeenCalled();
    expect(onNext).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /^Next/ }));
    expect(onNext).toHaveBeenCalledExactlyOnceWith(null);
  });

  it('goes on with Enter once, however often it is pressed, and not in the first moment', async () => {
    const { onNext } = feedback();
    // The previous screen's Enter pressed twice must not skip this one unseen.
    press('Enter');
    expect(onNext).not.toHaveBeenCalled();
    await pass(ENTER_ARMS_AFTER_MS);
    press('Enter');
    press('Enter');
    press('Enter', { repeat: true });
    expect(onNext).toHaveBeenCalledExactlyOnceWith(null);
    // A pick after that is too late to count twice.
    press('4');
    await pass(ADVANCE_MS);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('leaves Enter on a button to the button: one press, one step', async () => {
    const { onNext } = feedback();
    await pass(ENTER_ARMS_AFTER_MS);
    const skip = screen.getByRole('button', { name: 'Skip rating and go on' });
    skip.focus();
    press('Enter', {}, skip);
    expect(onNext).not.toHaveBeenCalled();
    fireEvent.click(skip);
    fireEvent.click(skip);
    expect(onNext).toHaveBeenCalledExactlyOnceWith(null);
  });
});
