import {
  isHostedVideo,
  type AdminQuestion,
  MAX_TIMER_SECONDS,
  OPEN_ANSWER_MAX_LENGTH,
  type QuestionInput,
  QuestionInputSchema,
  RR_WEIGHTS,
  rrCertaintyCap,
} from '@candor/contracts';
import { useEffect, useId, useState } from 'react';
import { type Path, useForm, useWatch } from 'react-hook-form';
import { successToast } from '../../../../lib/toasts';
import type { z } from 'zod';
import { Field } from '../../../../components/form';
import { useSaveQuestion } from '../../api/authoring';
import {
  QUESTION_TYPE_LABELS,
  type QuestionFormValues,
  newQuestionValues,
  questionInput,
  questionValues,
} from '../../lib/authoring';
import { applyIssues, applyServerErrors } from '../../../../lib/form-errors';
import { ConfirmDialog } from '../confirm-dialog';
import { ChoicesEditor } from './choices-editor';

type FieldName = keyof QuestionFormValues;

const FIELDS: FieldName[] = [
  'type',
  'question',
  'choices',
  'randomise_answers',
  'timer_seconds',
  'video_link_1',
  'video_link_2',
  'video_captions_1',
  'video_captions_2',
  'max_length',
  'rr_weight',
  'twin_qid',
];

const shape = QuestionInputSchema.shape;

/** Randomized response's strengths, as the editor names them (RR_WEIGHTS, strongest first). */
const RR_STRENGTH: Partial<Record<number, string>> = {
  3: 'Strongest deniability',
  9: 'Balanced',
  19: 'Lighter, narrower margins',
};
/** A strength's name; a weight set through the API outside the editor's three, by its number. */
const strengthName = (weight: number) => RR_STRENGTH[weight] ?? `weight ${weight}`;

/** What the API stores when the longest answer is left blank (DEFAULT_OPEN_MAX_LENGTH there). */
const DEFAULT_OPEN_MAX_LENGTH = 280;

const EMBED_CAPTIONS =
  'Captions work with direct video files only; YouTube and Vimeo carry their own.';

/** The first message of a contract field's schema for `value`, or true when it passes. */
function check(schema: z.ZodType, value: unknown): true | string {
  const result = schema.safeParse(value);
  return result.success || (result.error.issues[0]?.message ?? 'Check this value.');
}

const optionalLink = (schema: z.ZodType) => (value: string) =>
  value.trim() === '' || check(schema, value.trim());

function wholeNumberRule(min: number, max: number, message: string) {
  return (value: string) => {
    const v = value.trim();
    if (v === '') return true;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) return message;
    return true;
  };
}

/** Where a contract issue goes in the form: a choice row, the choices, or a field. */
function issuePath(path: readonly PropertyKey[]): string {
  if (path[0] === 'choices') {
    return typeof path[1] === 'number' ? `choices.${path[1]}.label` : 'choices';
  }
  return String(path[0] ?? '');
}

/**
 * Adds a question to a survey (`question` null) or edits one. Closed questions get the choices
 * editor; open ones a length limit. A refusal of the API (say, a choice that has answers) is
 * shown above the buttons and the input stays as it was.
 */
export function QuestionForm({
  gid,
  question,
  number,
  others,
  onDone,
  onDirtyChange,
}: {
  gid: string;
  question: AdminQuestion | null;
  /** The survey's other questions: a randomized question may ask one of them again. */
  others: readonly AdminQuestion[];
  /** The question's number in the survey (the next number for a new one). */
  number: number;
  onDone: () => void;
  /** Told whether the form holds changes that are not saved (the editor guards leaving). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const titleId = useId();
  const save = useSaveQuestion(gid);
  const form = useForm<QuestionFormValues>({
    mode: 'onTouched',
    defaultValues: question ? questionValues(question) : newQuestionValues(),
  });
  const { errors, isDirty } = form.formState;
  // A save confirmed in the dialog runs after handleSubmit has returned: the mutation says.
  const isSubmitting = form.formState.isSubmitting || save.isPending;
  const unsaved = isDirty && !isSubmitting;
  useEffect(() => {
    onDirtyChange?.(unsaved);
  }, [unsaved, onDirtyChange]);
  // A closed form (saved or cancelled) holds nothing unsaved.
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
  const [refusal, setRefusal] = useState<string[]>([]);
  /** A save that adds choices to a published question, waiting for the operator's yes. */
  const [adding, setAdding] = useState<{ input: QuestionInput; added: string[] } | null>(null);
  const type = useWatch({ control: form.control, name: 'type' });
  const videoLinks = useWatch({ control: form.control, name: ['video_link_1', 'video_link_2'] });
  const captionValues = useWatch({
    control: form.control,
    name: ['video_captions_1', 'video_captions_2'],
  });
  const embedded = videoLinks.map((l: string | undefined) => isHostedVideo(l ?? ''));
  const choiceRows = useWatch({ control: form.control, name: 'choices' });
  // The die's odds depend on how many answers there are: said with the numbers as they stand.
  const answers = Math.max(2, choiceRows.filter((c) => c.label.trim() !== '').length);
  const lockedChoices = question?.locked_choices ?? [];
  const typeLocked = question?.locked ?? false;
  const rrWeight = useWatch({ control: form.control, name: 'rr_weight' });
  // What a randomized question may ask again: an ordinary question with choices that no other
  // randomized question asks again already (decision 029).
  const twins = others.filter(
    (o) => o.type === 'Closed' && o.rr_weight === null && !others.some((x) => x.twin_qid === o.qid),
  );
  const twinOf = others.find((o) => o.qid === question?.twin_qid);

  /**
   * Checks the values against the contract and puts each issue under its field, leaving alone
   * the fields whose instant checks already failed (`failed`). True when the values pass.
   */
  const checkAll = (values: QuestionFormValues, failed: ReadonlySet<string>): boolean => {
    const parsed = QuestionInputSchema.safeParse(questionInput(values));
    if (parsed.success) return true;
    const rows = values.choices.map((_, i) => `choices.${i}.label`);
    const rest = applyIssues(
      parsed.error.issues.filter((issue) => !failed.has(issuePath(issue.path))),
      form.setError,
      [...FIELDS, ...rows] as Array<Path<QuestionFormValues>>,
      issuePath,
    );
    if (rest.length) setRefusal(rest);
    return false;
  };

  /**
   * Saves the input, unless it adds choices to a published question and the operator has not
   * yet confirmed that: those who already answered never saw the new choices.
   */
  const submit = async (input: QuestionInput, confirmed: boolean) => {
    if (!confirmed && question?.locked) {
      const added = (input.choices ?? []).filter(
        (label) => !question.locked_choices.includes(label),
      );
      if (added.length) {
        setAdding({ input, added });
        return;
      }
    }
    try {
      await save.mutateAsync({ qid: question?.qid ?? null, input });
      successToast(question ? `Question ${number} saved` : `Question ${number} added`);
      onDone();
    } catch (err) {
      const rest = applyServerErrors(
        err,
        form.setError,
        FIELDS,
        'The question could not be saved. Try again.',
      );
      setRefusal(rest);
    }
  };

  const onSubmit = form.handleSubmit(
    async (values) => {
      setRefusal([]);
      if (!checkAll(values, new Set())) return;
      await submit(questionInput(values), false);
    },
    // An instant check failed: the contract's other issues show at the same time.
    (failed) => {
      setRefusal([]);
      checkAll(form.getValues(), new Set(Object.keys(failed)));
    },
  );

  const video = (n: 1 | 2) => {
    const link = `video_link_${n}` as const;
    const captions = `video_captions_${n}` as const;
    // Captions for a YouTube or Vimeo link are refused at once, whichever field was typed last.
    const captionsError =
      errors[captions]?.message ??
      (embedded[n - 1] && captionValues[n - 1]?.trim() ? EMBED_CAPTIONS : undefined);
    return (
      <div className="question-form__video">
        <Field
          label={n === 1 ? 'Video link' : 'Second video link'}
          hint={
            n === 1
              ? 'YouTube, Vimeo, or an https link to an .mp4, .webm or .ogv file.'
              : 'Optional: played after the first video.'
          }
          error={errors[link]?.message}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              type="url"
              inputMode="url"
              placeholder="https://"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register(link, {
                validate: optionalLink(shape[link]),
                // The captions' error may hang on the link (YouTube or Vimeo, or not).
                onChange: () => {
                  if (form.getFieldState(captions).error) void form.trigger(captions);
                },
              })}
            />
          )}
        </Field>
        <Field
          label={n === 1 ? 'Captions' : 'Captions of the second video'}
          hint="Optional: an https link to a .vtt file, for a direct video file only (YouTube and Vimeo carry their own). The file must be on Candor’s site or served with CORS."
          error={captionsError}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              type="url"
              inputMode="url"
              placeholder="https://…/captions.vtt"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register(captions, {
                validate: (value) =>
                  value.trim() !== '' && isHostedVideo(form.getValues(link))
                    ? EMBED_CAPTIONS
                    : optionalLink(shape[captions])(value),
              })}
            />
          )}
        </Field>
      </div>
    );
  };

  return (
    <form
      className="form question-form"
      noValidate
      aria-labelledby={titleId}
      onSubmit={(e) => {
        // Errors of the last try (the server's too) give way to this one's.
        form.clearErrors();
        void onSubmit(e);
      }}
    >
      <h3 id={titleId} className="question-form__title">
        {question ? `Edit question ${number}` : `New question ${number}`}
      </h3>

      {typeLocked ? (
        <div className="field">
          <p className="field__label">Type</p>
          <p className="question-form__fixed">
            {QUESTION_TYPE_LABELS[type]}{' '}
            <span className="field__hint">(the survey is published, so its type stays)</span>
          </p>
        </div>
      ) : (
        <fieldset className="choice-group">
          <legend className="field__label">Type</legend>
          <div className="choice-group__options">
            {(['Closed', 'Open'] as const).map((value) => (
              <label key={value} className="choice-chip">
                <input type="radio" value={value} {...form.register('type')} />
                <span>{QUESTION_TYPE_LABELS[value]}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <Field label="Question" error={errors.question?.message}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            className="input question-form__text"
            rows={2}
            maxLength={500}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            {...form.register('question', { onChange: () => form.clearErrors('question') })}
          />
        )}
      </Field>

      {type === 'Closed' ? (
        <>
          <ChoicesEditor
            control={form.control}
            register={form.register}
            onEdit={() => form.clearErrors('choices')}
            errors={errors}
            locked={lockedChoices}
          />
          <label className="check">
            <input type="checkbox" {...form.register('randomise_answers')} />
            <span>
              Shuffle the choices for each person
              <span className="check__note">
                “Leave blank” stays last; each person keeps their order on reload.
              </span>
            </span>
          </label>
          {typeLocked ? (
            // Fixed once published: said, not offered (its value stays in the form as saved).
            <div className="field">
              <p className="field__label">Randomized response</p>
              <p className="field__hint">
                {question?.rr_weight ? `On (${strengthName(question.rr_weight)}). ` : 'Off. '}
                Fixed once the survey is published: answers were drawn under it.
              </p>
            </div>
          ) : (
            <Field
              label="Randomized response"
              hint="For questions people would otherwise lie about. Each phone rolls a die before sending and sometimes sends another answer, so nobody, Candor included, can know anyone’s answer; results are estimated back, with wider margins. “At most N% sure” is without other clues about the person. Leaving blank is never swapped."
              error={errors.rr_weight?.message}
            >
              {({ id, describedBy, invalid }) => (
                <select
                  id={id}
                  className="input"
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  {...form.register('rr_weight', { onChange: () => form.clearErrors('rr_weight') })}
                >
                  <option value="">Off: answers are sent as given</option>
                  {RR_WEIGHTS.map((weight) => {
                    const cap = Math.round(rrCertaintyCap({ choices: answers, weight }) * 100);
                    return (
                      <option key={weight} value={String(weight)}>
                        {`${strengthName(weight)}: sent as given ${weight} times in ${weight + answers - 1}, at most ${cap}% sure of anyone`}
                      </option>
                    );
                  })}
                </select>
              )}
            </Field>
          )}
          {typeLocked ? (
            twinOf && (
              <div className="field">
                <p className="field__label">Also asked directly</p>
                <p className="field__hint">
                  {`Paired with question ${twinOf.position}: each person is asked one of the two. Fixed once the survey is published.`}
                </p>
              </div>
            )
          ) : rrWeight !== '' && twins.length > 0 ? (
            <Field
              label="Also ask it directly (the honesty gap)"
              hint="Each person is asked one of the two, drawn at random on their phone. The results then say how many more choose each answer when nobody can know. Both questions need the same choices; about 600 people in each half show a gap of 6 points or more."
              error={errors.twin_qid?.message}
            >
              {({ id, describedBy, invalid }) => (
                <select
                  id={id}
                  className="input"
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  {...form.register('twin_qid', { onChange: () => form.clearErrors('twin_qid') })}
                >
                  <option value="">No: ask it this way only</option>
                  {twins.map((o) => (
                    <option key={o.qid} value={o.qid}>
                      {`Question ${o.position}: ${o.question}`}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
        </>
      ) : (
        <Field
          label="Longest answer (characters)"
          hint={`Leave blank for ${DEFAULT_OPEN_MAX_LENGTH.toLocaleString('en-US')}. At most ${OPEN_ANSWER_MAX_LENGTH.toLocaleString('en-US')}.`}
          error={errors.max_length?.message}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input question-form__number"
              inputMode="numeric"
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              {...form.register('max_length', {
                validate: wholeNumberRule(
                  1,
                  OPEN_ANSWER_MAX_LENGTH,
                  `Enter a whole number from 1 to ${OPEN_ANSWER_MAX_LENGTH}.`,
                ),
              })}
            />
          )}
        </Field>
      )}

      <Field
        label="Timer (seconds)"
        hint="0 for no timer. When it runs out, the question counts as left blank."
        error={errors.timer_seconds?.message}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input question-form__number"
            inputMode="numeric"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            {...form.register('timer_seconds', {
              validate: wholeNumberRule(
                0,
                MAX_TIMER_SECONDS,
                `Enter whole seconds from 0 to ${MAX_TIMER_SECONDS}.`,
              ),
            })}
          />
        )}
      </Field>

      <fieldset className="question-form__videos">
        <legend className="field__label">Video (optional)</legend>
        {video(1)}
        {video(2)}
      </fieldset>

      {refusal.length ? (
        <div className="notice notice--error question-form__refusal" role="alert">
          {refusal.map((m) => (
            <p key={m}>{m}</p>
          ))}
          <p className="question-form__kept">
            Your changes are still here: adjust them and save again.
          </p>
        </div>
      ) : null}

      <div className="question-form__actions">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : question ? 'Save question' : 'Add question'}
        </button>
        <button type="button" className="button" disabled={isSubmitting} onClick={onDone}>
          Cancel
        </button>
      </div>
      <ConfirmDialog
        open={adding !== null}
        title={
          adding && adding.added.length > 1
            ? `Add ${adding.added.length} choices to a live question?`
            : 'Add a choice to a live question?'
        }
        confirmLabel={adding && adding.added.length > 1 ? 'Add them' : 'Add it'}
        cancelLabel="Keep editing"
        onCancel={() => setAdding(null)}
        onConfirm={() => {
          const input = adding!.input;
          setAdding(null);
          void submit(input, true);
        }}
      >
        <p>
          {question && question.answers_count > 0
            ? `About ${question.answers_count.toLocaleString('en')} ${question.answers_count === 1 ? 'person' : 'people'} answered question ${number} without `
            : `Question ${number} is published, so people may have answered it without `}
          {adding?.added.map((label, i) => (
            <span key={label}>
              {i > 0 ? (i === adding.added.length - 1 ? ' and ' : ', ') : null}“{label}”
            </span>
          ))}
          . Their answers stay as they were, so a new choice counts only from now on and starts
          behind the others.
        </p>
        <p>To compare like with like, add a new question instead.</p>
      </ConfirmDialog>
    </form>
  );
}
