import { LEAVE_BLANK_CHOICE, type Question } from '@candor/contracts';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GHOST_TAP_MS, QuestionScreen, type AnswerInput } from './question-screen';

const closed: Question = {
  qid: '00000000-0000-4000-8000-000000000001',
  question: 'Would you look?',
  type: 'Closed',
  timer_length: '0:00:00',
  video_link_1: null,
  video_link_2: null,
  video_captions_1: null,
  video_captions_2: null,
  submitted: '2026-01-01T00:00:00Z',
  choices: ['Yes', 'No', LEAVE_BLANK_CHOICE],
  randomise_answers: false,
  max_length: null,
  rr_weight: null,
  twin_qid: null,
};
const open: Question = { ...closed, type: 'Open', choices: [], max_length: 20 };

/** An `onAnswer` that records every answer it is given. */
const recorded = () => vi.fn((_input: AnswerInput) => Promise.resolve(true));

/** The screen of `question` (total 3), recording answers with `onAnswer`. */
const questionScreen = (
  question: Question,
  onAnswer: ReturnType<typeof recorded>,
  number = 1,
  { choices = question.choices, takeYourTime = false } = {},
) => (
  <QuestionScreen
    question={question}
    choices={choices}
    number={number}
    total={3}
    busy={false}
    onAnswer={onAnswer}
    onNext={vi.fn()}
    takeYourTime={takeYourTime}
  />
);

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('QuestionScreen', () => {
  it('takes one answer however often it is tapped', () => {
    const onAnswer = recorded();
    render(questionScreen(closed, onAnswer));
    const yes = screen.getByRole('button', { name: 'Yes' });
    fireEvent.click(yes);
    fireEvent.click(yes);
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({
      choice: 'Yes',
      answer: 'Yes',
      isBlank: false,
      position: 0,
    });
    expect(yes.getAttribute('aria-pressed')).toBe('true');
  });

  it('takes no tap that lands as the question appears (a double tap on the screen before)', () => {
    vi.useFakeTimers();
    for (const question of [closed, open]) {
      const onAnswer = recorded();
      const { unmount } = render(questionScreen(question, onAnswer, 2));
      const target = screen.getByRole('button', {
        name: question.type === 'Closed' ? 'Yes' : 'Leave blank',
      });
      // A tap (detail 1) at once, and again just before the pause is over: neither is a choice.
      fireEvent.click(target, { detail: 1 });
      void act(() => void vi.advanceTimersByTime(GHOST_TAP_MS - 1));
      fireEvent.click(target, { detail: 2 });
      expect(onAnswer).not.toHaveBeenCalled();
      // After it, a tap is.
      void act(() => void vi.advanceTimersByTime(1));
      fireEvent.click(target, { detail: 1 });
      expect(onAnswer).toHaveBeenCalledTimes(1);
      unmount();
    }
    // Keys (a click with detail 0, as Enter or Space on a button) count at once.
    const onAnswer = recorded();
    render(questionScreen(closed, onAnswer));
    fireEvent.click(screen.getByRole('button', { name: 'No' }), { detail: 0 });
    expect(onAnswer).toHaveBeenCalledWith({
      choice: 'No',
      answer: 'No',
      isBlank: false,
      position: 1,
    });
  });

  it('says where the picked answer sat on this person’s screen, for their pace', () => {
    const onAnswer = recorded();
    render(questionScreen(closed, onAnswer, 1, { choices: ['No', 'Yes', LEAVE_BLANK_CHOICE] }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(onAnswer).toHaveBeenCalledWith({
      choice: 'Yes',
      answer: 'Yes',
      isBlank: false,
      position: 1,
    });
  });

  it('tells a rushing person kindly, above the question, only when asked to', () => {
    const { unmount } = render(questionScreen(closed, recorded()));
    expect(document.querySelector('.question__pace')).toBeNull();
    unmount();
    render(questionScreen(closed, recorded(), 2, { takeYourTime: true }));
    const note = document.querySelector('.question__pace')!;
    expect(note.textContent).toMatch(/^No rush\. There are no right answers/);
    // Read with the heading, where focus lands.
    expect(screen.getByRole('heading', { level: 1 }).getAttribute('aria-describedby')).toBe(
      note.id,
    );
  });

  it('always offers leave-blank, sent as the blank choice', () => {
    const onAnswer = recorded();
    render(questionScreen(closed, onAnswer));
    fireEvent.click(screen.getByRole('button', { name: 'Leave blank' }));
    expect(onAnswer).toHaveBeenCalledWith({
      choice: LEAVE_BLANK_CHOICE,
      answer: '',
      isBlank: true,
    });
  });

  it('records a blank when the countdown runs out', () => {
    vi.useFakeTimers();
    const onAnswer = recorded();
    render(questionScreen({ ...closed, timer_length: '0:00:05' }, onAnswer, 2));
    expect(screen.getByText('5s left')).toBeTruthy();
    void act(() => void vi.advanceTimersByTime(4000));
    expect(onAnswer).not.toHaveBeenCalled();
    void act(() => void vi.advanceTimersByTime(1500));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({
      choice: LEAVE_BLANK_CHOICE,
      answer: '',
      isBlank: true,
      timedOut: true,
    });
  });

  it('gives more time when asked, as often as asked, and warns before the time runs out', () => {
    vi.useFakeTimers();
    const onAnswer = recorded();
    render(questionScreen({ ...closed, timer_length: '0:00:25' }, onAnswer, 2));
    expect(screen.queryByText(/Need more time/)).toBeNull();
    void act(() => void vi.advanceTimersByTime(6000));
    expect(screen.getByRole('status').textContent).toMatch(/Need more time\?/);
    for (let i = 0; i < 3; i++) {
      fireEvent.click(screen.getByRole('button', { name: /More time/ }));
    }
    expect(screen.getByText('109s left')).toBeTruthy();
    void act(() => void vi.advanceTimersByTime(100_000));
    expect(onAnswer).not.toHaveBeenCalled();
    void act(() => void vi.advanceTimersByTime(10_000));
    expect(onAnswer).toHaveBeenCalledTimes(1);
  });

  it('keeps the deadline across a remount (a reload), and forgets it once answered', () => {
    vi.useFakeTimers();
    const question = { ...closed, timer_length: '0:00:25' };
    const screenFor = (onAnswer = recorded()) => questionScreen(question, onAnswer, 2);
    const first = render(screenFor());
    void act(() => void vi.advanceTimersByTime(10_000));
    first.unmount();
    const again = render(screenFor());
    expect(screen.getByText('15s left')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    again.unmount();
    render(screenFor());
    expect(screen.getByText('25s left')).toBeTruthy();
  });

  it('sends trimmed open text, limited to the question length, or a blank', () => {
    const onAnswer = recorded();
    render(questionScreen(open, onAnswer));
    const box = screen.getByLabelText('Your answer');
    expect(box.getAttribute('maxlength')).toBe('20');
    const send = screen.getByRole('button', { name: 'Send my answer' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: '  honestly  ' } });
    fireEvent.click(send);
    expect(onAnswer).toHaveBeenCalledWith({ text: 'honestly', answer: 'honestly', isBlank: false });
  });
});
