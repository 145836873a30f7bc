import { LEAVE_BLANK_CHOICE, OPEN_ANSWER_MAX_LENGTH, type Question } from '@candor/contracts';
import { useId, useState } from 'react';
import { clearDeadline } from '../lib/deadline';
import { timerSeconds } from '../lib/flow';
import { LandscapeAlert } from '../../../components/landscape-alert';
import { Countdown } from './countdown';
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
}

interface Props {
  question: Question;
  /** Choice order for this person (shuffled where the question says so, leave-blank last). */
  choices: string[];
  number: number;
  total: number;
  onAnswer: (input: AnswerInput) => void;
  /** An answer is being recorded: every control is disabled so a double tap stores one answer. */
  busy: boolean;
}

const blankFor = (q: Question): AnswerInput =>
  q.type === 'Closed'
    ? { choice: LEAVE_BLANK_CHOICE, answer: '', isBlank: true }
    : { text: '', answer: '', isBlank: true };

/** One question per screen: video if any, the question, its choices or a text box, a timer. */
export function QuestionScreen({ question, choices, number, total, onAnswer, busy }: Props) {
  const headingId = useId();
  const seconds = timerSeconds(question.timer_length);
  const [picked, setPicked] = useState<string | null>(null);
  const submit = (input: AnswerInput) => {
    if (busy || picked !== null) return;
    setPicked(input.choice ?? input.text ?? '');
    // Answered in time: a reload must not call it run out.
    if (!input.timedOut) clearDeadline(question.qid);
    onAnswer(input);
  };
  const video = question.video_link_1;
  const hasVideo = Boolean(video);
  return (
    <section
      className={`question${hasVideo ? ' question--video' : ''}`}
      aria-labelledby={headingId}
    >
      {hasVideo ? <LandscapeAlert topic="video" /> : null}
      <p className="question__progress">
        Question {number} of {total}
        <span className="question__progress-bar" aria-hidden="true">
          <span style={{ transform: `scaleX(${number / total})` }} />
        </span>
      </p>
      {seconds > 0 ? (
        <Countdown
          qid={question.qid}
          seconds={seconds}
          onExpire={() => submit({ ...blankFor(question), timedOut: true })}
        />
      ) : null}
      {video ? (
        <div className="question__media">
          <QuestionVideo
            src={video}
            captions={question.video_captions_1}
            title={`Video for question ${number}`}
          />
          {question.video_link_2 ? (
            <QuestionVideo
              src={question.video_link_2}
              captions={question.video_captions_2}
              title={`Second video for question ${number}`}
            />
          ) : null}
        </div>
      ) : null}
      <div className="question__main">
        <h1 id={headingId} className="question__text" tabIndex={-1}>
          {question.question}
        </h1>
        {question.type === 'Closed' ? (
          <ul className="answers" aria-label="Answers">
            {choices.map((choice) => {
              const blank = choice === LEAVE_BLANK_CHOICE;
              return (
                <li key={choice}>
                  <button
                    type="button"
                    className={`answer${blank ? ' answer--blank' : ''}${picked === choice ? ' answer--picked' : ''}`}
                    disabled={busy || picked !== null}
                    aria-pressed={picked === choice}
                    onClick={() =>
                      submit(
                        blank ? blankFor(question) : { choice, answer: choice, isBlank: false },
                      )
                    }
                  >
                    {blank ? 'Leave blank' : choice}
                  </button>
                </li>
              );
            })}
          </ul>
        ) : (
          <OpenAnswer
            maxLength={question.max_length ?? OPEN_ANSWER_MAX_LENGTH}
            disabled={busy || picked !== null}
            onSubmit={(text) =>
              submit(text ? { text, answer: text, isBlank: false } : blankFor(question))
            }
          />
        )}
      </div>
    </section>
  );
}

function OpenAnswer({
  maxLength,
  disabled,
  onSubmit,
}: {
  maxLength: number;
  disabled: boolean;
  onSubmit: (text: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const trimmed = text.trim();
  return (
    <form
      className="open-answer"
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
        aria-describedby={`${id}-count`}
      />
      <p id={`${id}-count`} className="field__hint open-answer__count">
        {text.length} / {maxLength} characters · only the words are kept, never your name
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
          onClick={() => onSubmit('')}
        >
          Leave blank
        </button>
      </div>
    </form>
  );
}
