import { LEAVE_BLANK_CHOICE, OPEN_ANSWER_MAX_LENGTH, type Question } from '@candor/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { clearDeadline, readDeadline } from '../lib/deadline';
import { timerSeconds } from '../lib/flow';
import {
  ADVANCE_MS,
  choiceIndexForKey,
  choiceLetter,
  choiceShortcuts,
  useEnterToGoOn,
  useScreenKeys,
} from '../lib/keys';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { RrExplainer } from '../../../components/privacy/randomized-response';
import { Countdown } from './countdown';
import { EnterHint } from './key-hint';
import { QuestionVideo } from './question-video';
import '../styles/answering.css';

export interface AnswerInput {
  choice?: string;
  text?: string;
  /** What the person sees as their answer; '' when left blank. */
  answer: string;
  isBlank: boolean;
  /** Recorded as left blank because the question's time ran out. */
  timedOut?: boolean;
  /** Where the picked choice sat on the screen (0 first), for the pace (answer-pace.ts). */
  position?: number;
}

interface Props {
  question: Question;
  /** Choice order for this person (shuffled where the question says so, leave-blank last). */
  choices: string[];
  number: number;
  total: number;
  /** Records the answer; resolves true once it is kept (false: it was not, the person may retry). */
  onAnswer: (input: AnswerInput) => Promise<boolean>;
  /** Goes on to the answer's feedback, once it is recorded. */
  onNext: () => void;
  /** An answer is being recorded: every control is disabled so a double tap stores one answer. */
  busy: boolean;
  /** The person has been rushing: a kind word to take their time, above the question. */
  takeYourTime?: boolean;
}

/** A video of the screen is playing: going on by itself would cut it off. */
const videoPlaying = (screen: Element | null) =>
  [...(screen?.querySelectorAll('video') ?? [])].some((v) => !v.paused && !v.ended);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const blankFor = (q: Question): AnswerInput =>
  q.type === 'Closed'
    ? { choice: LEAVE_BLANK_CHOICE, answer: '', isBlank: true }
    : { text: '', answer: '', isBlank: true };

/** A tap this soon after a question appears is taken for the tail of a double tap. */
export const GHOST_TAP_MS = 500;

/** Whether a click is a choice: a key's (detail 0) always; a pointer's once the screen settled. */
const deliberate = (event: { detail: number }, settled: boolean) => event.detail === 0 || settled;

/**
 * One question per screen: video if any, the question, its choices or a text box, a timer.
 * A choice is picked by a tap, or by its key (`A`-`Z`, `1`-`9`); the pick is recorded at once,
 * stays marked for a moment, then the screen goes on by itself, unless a video is playing
 * (then "Next" waits for the person). Docs: decisions/016-answering-keys.md.
 */
export function QuestionScreen({
  question,
  choices,
  number,
  total,
  onAnswer,
  onNext,
  busy,
  takeYourTime = false,
}: Props) {
  const headingId = useId();
  const paceId = useId();
  const videoCount = [question.video_link_1, question.video_link_2].filter(Boolean).length;
  const screenRef = useRef<HTMLElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const seconds = timerSeconds(question.timer_length);
  // A timed question with a video: its clock starts when the video has been watched (every
  // video of it ended, or its length passed since it started playing where the player cannot
  // tell), not when the screen opens (issue 30, point 5). A deadline kept from before a reload
  // means it had started. A video that fails to load never starts it: the person skips instead.
  const [clock, setClock] = useState<'waiting' | 'running' | 'failed'>(() =>
    !question.video_link_1 || seconds === 0 || readDeadline(question.qid) !== null
      ? 'running'
      : 'waiting',
  );
  const ended = useRef(new Set<number>());
  const lengthTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(lengthTimer.current), []);
  const startClock = () => setClock((c) => (c === 'waiting' ? 'running' : c));
  const videoEnded = (index: number) => {
    ended.current.add(index);
    if (ended.current.size >= videoCount) startClock();
  };
  const videoStarted = (left: number | null) => {
    if (left === null || lengthTimer.current) return;
    // Where the player cannot tell its end (some embeds), its length, and a second.
    lengthTimer.current = setTimeout(startClock, (left + 1) * 1000);
  };
  const videoFailed = () => setClock('failed');
  const [picked, setPicked] = useState<string | null>(null);
  // The same pick twice in one tick (two keys, a key and a tap) must not record two answers.
  const pickedRef = useRef(false);
  // Answer recorded while a video played: the person goes on with "Next" when they like.
  const [held, setHeld] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  // Focus on Next (announced, Enter goes on) without scrolling the playing video away.
  useEffect(() => {
    if (held) nextRef.current?.focus({ preventScroll: true });
  }, [held]);
  // The screen goes on once, whichever comes first: the pause after a pick, Next, or Enter.
  const wentOn = useRef(false);
  const goOn = () => {
    if (wentOn.current || !live.current) return;
    wentOn.current = true;
    onNext();
  };

  const submit = async (input: AnswerInput) => {
    if (busy || pickedRef.current) return;
    pickedRef.current = true;
    const at = Date.now();
    setPicked(input.choice ?? input.text ?? '');
    // Answered in time: a reload must not call it run out.
    if (!input.timedOut) clearDeadline(question.qid);
    const hold = !input.timedOut && videoPlaying(screenRef.current);
    const recorded = await onAnswer(input);
    if (!live.current) return;
    if (!recorded) {
      // Not kept (the browser refused to store it): the person can pick again.
      pickedRef.current = false;
      setPicked(null);
      return;
    }
    if (hold) {
      setHeld(true);
      return;
    }
    // A choice stays marked a moment, so the person sees what was taken (sent text, and a
    // run-out, whose "Time's up" is on the next screen, have nothing to show).
    if (question.type === 'Closed' && !input.timedOut) {
      await wait(ADVANCE_MS - (Date.now() - at));
    }
    goOn();
  };
  const pick = (choice: string) =>
    void submit(
      choice === LEAVE_BLANK_CHOICE
        ? blankFor(question)
        : { choice, answer: choice, isBlank: false, position: choices.indexOf(choice) },
    );
  // The second tap of a double tap on the screen before (Start, Skip) lands on whatever answer
  // now lies under the finger, and an answer cannot be changed: a tap or click that comes this
  // soon after the question appeared is not a choice. Until then the answers take no pointer
  // (CSS: a tap falls through to nothing), and a click that still reaches one is dropped. Keys
  // (a click with detail 0) always count.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), GHOST_TAP_MS);
    return () => clearTimeout(timer);
  }, []);

  useScreenKeys(
    screenRef,
    (event) => {
      const index = choiceIndexForKey(event.key);
      const choice = index === null ? undefined : choices[index];
      if (choice === undefined) return;
      event.preventDefault();
      pick(choice);
    },
    question.type === 'Closed' && picked === null && !busy,
  );
  useEnterToGoOn(screenRef, goOn, held);

  const video = question.video_link_1;
  const hasVideo = Boolean(video);
  return (
    <section
      ref={screenRef}
      className={`question${hasVideo ? ' question--video' : ''}`}
      aria-labelledby={headingId}
    >
      {hasVideo && clock !== 'failed' ? <LandscapeAlert topic="video" /> : null}
      <p className="question__progress">
        Question {number} of {total}
        <span className="question__progress-bar" aria-hidden="true">
          <span style={{ transform: `scaleX(${number / total})` }} />
        </span>
      </p>
      {seconds > 0 && clock === 'running' ? (
        <Countdown
          qid={question.qid}
          seconds={seconds}
          onExpire={() => void submit({ ...blankFor(question), timedOut: true })}
        />
      ) : null}
      {seconds > 0 && clock === 'waiting' ? (
        <p className="question__clock-note">
          You have {seconds} seconds to answer, counted from the end of the video.
        </p>
      ) : null}
      {video && clock === 'failed' ? (
        <div className="question__video-failed" role="alert">
          <p>This video could not be loaded, so there is no time limit on this question.</p>
          <p>
            <a href={video} target="_blank" rel="noopener noreferrer">
              Open the video in a new tab
            </a>
            , or{' '}
            <button
              type="button"
              className="link-button"
              disabled={busy || picked !== null}
              onClick={() => void submit(blankFor(question))}
            >
              skip this one
            </button>
            .
          </p>
        </div>
      ) : null}
      {video && clock !== 'failed' ? (
        <div className="question__media">
          <QuestionVideo
            src={video}
            captions={question.video_captions_1}
            title={`Video for question ${number}`}
            onEnded={() => videoEnded(0)}
            onPlaying={videoStarted}
            onFailed={videoFailed}
          />
          {question.video_link_2 ? (
            <QuestionVideo
              src={question.video_link_2}
              captions={question.video_captions_2}
              title={`Second video for question ${number}`}
              onEnded={() => videoEnded(1)}
              onPlaying={videoStarted}
              onFailed={videoFailed}
            />
          ) : null}
        </div>
      ) : null}
      <div className="question__main">
        {takeYourTime ? (
          <p id={paceId} className="question__pace">
            No rush. There are no right answers here, and a moment with each question makes what you
            learn about yourself truer.
          </p>
        ) : null}
        <h1
          id={headingId}
          className="question__text"
          tabIndex={-1}
          // Focus lands on the heading (or a written answer's box): the kind word is read with
          // it, not lost above it. No live region: one that mounts with its text is not
          // reliably announced, and would say it twice where it is.
          aria-describedby={takeYourTime ? paceId : undefined}
        >
          {question.question}
        </h1>
        <RrExplainer question={question} />
        {question.type === 'Closed' ? (
          <ul className={`answers${settled ? '' : ' answers--settling'}`} aria-label="Answers">
            {choices.map((choice, index) => {
              const blank = choice === LEAVE_BLANK_CHOICE;
              const isPicked = picked === choice;
              return (
                <li key={choice}>
                  <button
                    type="button"
                    className={`answer${blank ? ' answer--blank' : ''}${isPicked ? ' answer--picked' : ''}`}
                    // The picked one keeps focus (and its ring) while it shows as taken.
                    disabled={(busy || picked !== null) && !isPicked}
                    aria-pressed={isPicked}
                    aria-keyshortcuts={choiceShortcuts(index)}
                    // Its key, drawn before the answer (CSS), as on Typeform: a badge for the
                    // eyes, out of the button's name and text (the keys are announced).
                    data-key={choiceLetter(index) ?? undefined}
                    onClick={(event) => deliberate(event, settled) && pick(choice)}
                  >
                    <span className="answer__label">{blank ? 'Leave blank' : choice}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        ) : (
          <OpenAnswer
            questionId={headingId}
            noteId={takeYourTime ? paceId : undefined}
            maxLength={question.max_length ?? OPEN_ANSWER_MAX_LENGTH}
            disabled={busy || picked !== null}
            settled={settled}
            onSubmit={(text) =>
              void submit(text ? { text, answer: text, isBlank: false } : blankFor(question))
            }
          />
        )}
        {held ? (
          <div className="question__held">
            <p role="status">Your answer is saved. Finish the video if you like, then go on.</p>
            <button
              ref={nextRef}
              type="button"
              className="button button--primary button--large"
              onClick={goOn}
            >
              Next <EnterHint />
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function OpenAnswer({
  questionId,
  noteId,
  maxLength,
  disabled,
  settled,
  onSubmit,
}: {
  /** The question's heading: read with the box, which takes the focus (issue 30, point 9). */
  questionId: string;
  /** The kind word to take one's time, when shown: read with the box too. */
  noteId?: string | undefined;
  maxLength: number;
  disabled: boolean;
  /** Past the pause in which a tap is taken for a double tap's second half (GHOST_TAP_MS). */
  settled: boolean;
  onSubmit: (text: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const trimmed = text.trim();
  return (
    <form
      className={`open-answer${settled ? '' : ' open-answer--settling'}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (trimmed) onSubmit(trimmed);
      }}
    >
      <label htmlFor={id} className="field__label">
        Your answer
      </label>
      <textarea
        id={id}
        className="input open-answer__text"
        rows={5}
        maxLength={maxLength}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // Enter is a new line in a long answer; Ctrl (⌘) + Enter sends it.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.repeat) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
        aria-describedby={[questionId, noteId, `${id}-count`].filter(Boolean).join(' ')}
      />
      <p id={`${id}-count`} className="field__hint open-answer__count">
        {text.length} / {maxLength} characters · only the words are kept, never your name
        <span className="key-only" aria-hidden="true">
          {' '}
          · Ctrl + Enter sends
        </span>
      </p>
      <div className="open-answer__actions">
        <button
          type="submit"
          className="button button--primary button--large"
          disabled={disabled || !trimmed}
        >
          Send my answer
        </button>
        <button
          type="button"
          className="button answer--blank"
          disabled={disabled}
          onClick={(event) => deliberate(event, settled) && onSubmit('')}
        >
          Leave blank
        </button>
      </div>
    </form>
  );
}
