import {
  type AdminGenre,
  type AdminSurvey,
  type SurveyInput,
  SurveyInputSchema,
  type SurveyVariant,
} from '@candor/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field } from '../../../../components/form';
import { authoringQueries } from '../../api/authoring';
import {
  type BrickSize,
  FEEDBACK_LABELS,
  type Feedback,
  SIZE_LABELS,
  fromLocalInput,
  joinVariant,
  localZoneName,
  splitVariant,
  toLocalInput,
} from '../../lib/authoring';
import { applyIssues, applyServerErrors } from '../../../../lib/form-errors';
import { ImageField } from './image-field';

export interface SurveyFormValues {
  name: string;
  author: string;
  cover_headline: string;
  intro_screen_text: string;
  outro_screen_text: string;
  cover_image: string | null;
  intro_screen_image: string | null;
  variant: SurveyVariant;
  randomise_questions: boolean;
  /** Blank: after the last brick (a new survey) or where it is (an edit). */
  slot: string;
  /** The `datetime-local` value, on this browser's clock. */
  release_date: string;
  /** The scheduled close as a `datetime-local` value; blank for none. */
  closes_at: string;
  genres: string[];
}

/** Fields filled by a picker or a box (images, genres, variant, order) rather than typed. */
type PickedField =
  'cover_image' | 'intro_screen_image' | 'genres' | 'variant' | 'randomise_questions';
type TextField = Exclude<keyof SurveyFormValues, PickedField>;

const FIELDS = [
  'name',
  'author',
  'cover_headline',
  'intro_screen_text',
  'outro_screen_text',
  'cover_image',
  'intro_screen_image',
  'variant',
  'randomise_questions',
  'slot',
  'release_date',
  'closes_at',
  'genres',
] as const satisfies ReadonlyArray<keyof SurveyFormValues>;

/** The form's starting values: the saved survey's, or a new draft released now. */
export function surveyValues(survey: AdminSurvey | null): SurveyFormValues {
  return {
    name: survey?.name ?? '',
    author: survey?.author ?? '',
    cover_headline: survey?.cover_headline ?? '',
    intro_screen_text: survey?.intro_screen_text ?? '',
    outro_screen_text: survey?.outro_screen_text ?? '',
    cover_image: survey?.cover_image ?? null,
    intro_screen_image: survey?.intro_screen_image ?? null,
    variant: survey?.variant ?? 'v1_medium',
    randomise_questions: survey?.randomise_questions ?? false,
    slot: survey ? String(survey.slot) : '',
    release_date: toLocalInput(survey?.release_date ?? new Date().toISOString()),
    closes_at: survey?.closes_at ? toLocalInput(survey.closes_at) : '',
    genres: survey?.genres.map((g) => g.unique_GID) ?? [],
  };
}

/**
 * The form's values as the API's SurveyInput; a date that is not one is sent as ''. `base` is the
 * survey the form started from (null for a new one). An untouched release date is sent as saved
 * (the input shows minutes; the saved date may have seconds). The slot is sent only when the
 * admin changed it: the form may have started from an older copy, and the Surveys tab may have
 * reordered the bricks since (the API keeps the slot it has when none is sent). Genres that are
 * no longer in `known` (deleted meanwhile) are left out, as the API would refuse them.
 */
function surveyInput(
  values: SurveyFormValues,
  base: AdminSurvey | null,
  known: readonly AdminGenre[] | undefined,
): SurveyInput {
  const keepDate = base && values.release_date === toLocalInput(base.release_date);
  const keepClose = base?.closes_at && values.closes_at === toLocalInput(base.closes_at);
  const slot = values.slot.trim();
  const slotChanged = slot !== '' && slot !== (base ? String(base.slot) : '');
  const genreIds = known ? new Set(known.map((g) => g.unique_GID)) : null;
  return {
    name: values.name,
    author: values.author,
    cover_headline: values.cover_headline,
    intro_screen_text: values.intro_screen_text,
    outro_screen_text: values.outro_screen_text,
    cover_image: values.cover_image,
    intro_screen_image: values.intro_screen_image,
    variant: values.variant,
    randomise_questions: values.randomise_questions,
    ...(slotChanged ? { slot: Number(slot) } : {}),
    release_date: keepDate ? base.release_date : (fromLocalInput(values.release_date) ?? ''),
    closes_at: keepClose
      ? base.closes_at
      : values.closes_at
        ? (fromLocalInput(values.closes_at) ?? '')
        : null,
    genres: genreIds ? values.genres.filter((g) => genreIds.has(g)) : values.genres,
  };
}

/**
 * A survey's own fields: texts, images, genres, the variant, the slot and the release date.
 * `onSave` sends the input and resolves with the saved survey (the form then starts from it), or
 * rejects with the API's error, which is shown under the fields it names. A newer copy of
 * `survey` (refetched, or saved elsewhere) restarts the form unless it holds unsaved changes.
 */
export function SurveyForm({
  survey,
  onSave,
  onError,
  saveLabel,
  onDirtyChange,
}: {
  survey: AdminSurvey | null;
  onSave: (input: SurveyInput) => Promise<AdminSurvey>;
  /** Messages that belong to no field (shown as toasts by the editor). */
  onError: (messages: string[]) => void;
  saveLabel: string;
  /** Told whether the form holds changes that are not saved (the editor guards leaving). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  // Fresh each time the form opens: a genre may have been deleted on the Genres tab.
  const genres = useQuery({ ...authoringQueries.genres(), refetchOnMount: 'always' });
  const form = useForm<SurveyFormValues>({ defaultValues: surveyValues(survey) });
  // The survey the form's values started from.
  const [base, setBase] = useState(survey);
  const { errors, isSubmitting, isDirty } = form.formState;
  const zone = localZoneName();
  const unsaved = isDirty && !isSubmitting;
  useEffect(() => onDirtyChange?.(unsaved), [unsaved, onDirtyChange]);
  // A newer copy of the survey (say, its slot after a reorder) restarts an untouched form; one
  // with changes keeps them, and takes the newer copy once it is saved or back as it was.
  if (survey && survey !== base && !isDirty && !isSubmitting) setBase(survey);
  const resetTo = useRef(base);
  useEffect(() => {
    if (resetTo.current === base) return;
    resetTo.current = base;
    form.reset(surveyValues(base));
  }, [base, form]);
  // A field's error (the server's too) goes as soon as the field changes.
  const registerText = (name: TextField) =>
    form.register(name, { onChange: () => form.clearErrors(name) });
  // A date and time on this browser's clock: the release date and the scheduled close.
  const dateField = (name: 'release_date' | 'closes_at', label: string, hint: string) => (
    <Field label={label} hint={`On your clock (${zone}). ${hint}`} error={errors[name]?.message}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          type="datetime-local"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...registerText(name)}
        />
      )}
    </Field>
  );
  const clearing =
    <V,>(name: PickedField, onChange: (v: V) => void) =>
    (value: V) => {
      form.clearErrors(name);
      onChange(value);
    };

  const onSubmit = form.handleSubmit(async (values) => {
    const input = surveyInput(values, base, genres.data?.results);
    const parsed = SurveyInputSchema.safeParse(input);
    if (!parsed.success) {
      const dateMissing = input.release_date === '';
      const closeBad = input.closes_at === '';
      const rest = applyIssues(
        parsed.error.issues.filter(
          (i) =>
            !(dateMissing && i.path[0] === 'release_date') &&
            !(closeBad && i.path[0] === 'closes_at'),
        ),
        form.setError,
        FIELDS,
      );
      if (dateMissing) {
        form.setError('release_date', { message: 'Pick a release date and time.' });
      }
      if (closeBad) {
        form.setError('closes_at', { message: 'Pick a date and time, or leave it blank.' });
      }
      if (rest.length) onError(rest);
      form.setFocus(
        FIELDS.find((f) => form.getFieldState(f).error) ?? (dateMissing ? 'release_date' : 'name'),
      );
      return;
    }
    try {
      const saved = await onSave(input);
      setBase(saved);
      form.reset(surveyValues(saved));
    } catch (err) {
      const rest = applyServerErrors(
        err,
        form.setError,
        FIELDS,
        'The survey could not be saved. Try again.',
      );
      if (rest.length) onError(rest);
    }
  });

  const text = (name: 'name' | 'author' | 'cover_headline', label: string, hint?: string) => (
    <Field label={label} hint={hint} error={errors[name]?.message}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...registerText(name)}
        />
      )}
    </Field>
  );

  const area = (name: 'intro_screen_text' | 'outro_screen_text', label: string, hint: string) => (
    <Field label={label} hint={hint} error={errors[name]?.message}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          className="input survey-form__text"
          rows={4}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...registerText(name)}
        />
      )}
    </Field>
  );

  return (
    <form
      className="form survey-form"
      noValidate
      onSubmit={(e) => {
        // Errors of the last try (the server's too) give way to this one's.
        form.clearErrors();
        void onSubmit(e);
      }}
    >
      <fieldset className="survey-form__group">
        <legend className="survey-form__legend">About the survey</legend>
        {text('name', 'Name', 'Shown on the intro screen and in the share link.')}
        <div className="survey-form__row">
          {text('author', 'Author', 'Shown as “By …” under the intro.')}
          {text('cover_headline', 'Cover headline', 'The line on the home page’s brick.')}
        </div>
        <GenrePicker
          control={form.control}
          onPick={() => form.clearErrors('genres')}
          genres={genres.data?.results}
          failed={genres.isError}
          error={errors.genres?.message}
        />
      </fieldset>

      <fieldset className="survey-form__group">
        <legend className="survey-form__legend">Images and texts</legend>
        <p className="form__note">
          Images: JPEG, PNG, WebP or GIF up to 5 MB, uploaded as soon as you pick them (stored as
          WebP, at most 1600 pixels a side). Save the survey to use them.
        </p>
        <div className="survey-form__row">
          <Controller
            control={form.control}
            name="cover_image"
            render={({ field, fieldState }) => (
              <ImageField
                label="Cover image"
                hint="The background of the home page’s brick."
                value={field.value}
                onChange={clearing('cover_image', field.onChange)}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="intro_screen_image"
            render={({ field, fieldState }) => (
              <ImageField
                label="Intro image"
                hint="Shown above the intro text, 16:9."
                value={field.value}
                onChange={clearing('intro_screen_image', field.onChange)}
                error={fieldState.error?.message}
              />
            )}
          />
        </div>
        {area('intro_screen_text', 'Intro text', 'What people read before the first question.')}
        {area('outro_screen_text', 'Outro text', 'What people read after the last question.')}
        {survey && survey.state !== 'draft' ? (
          // Fixed once published: said, not offered (its value stays in the form as saved).
          <div className="field">
            <p className="field__label">Order of questions</p>
            <p className="field__hint">
              {survey.randomise_questions
                ? 'Shuffled for each person. Fixed once published.'
                : 'As listed below, for everyone. Fixed once published.'}
            </p>
          </div>
        ) : (
          <label className="check">
            <input type="checkbox" {...form.register('randomise_questions')} />
            <span>
              Shuffle the order of questions for each person
              <span className="check__note">
                Each person keeps their order on reload. The two questions of an honesty-gap pair
                count as one place. Fixed once the survey is published.
              </span>
            </span>
          </label>
        )}
        {errors.randomise_questions?.message ? (
          <p className="field__error" role="alert">
            {errors.randomise_questions.message}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="survey-form__group">
        <legend className="survey-form__legend">On the home page</legend>
        <Controller
          control={form.control}
          name="variant"
          render={({ field }) => (
            <VariantPicker value={field.value} onChange={clearing('variant', field.onChange)} />
          )}
        />
        <div className="survey-form__row survey-form__row--aligned">
          {dateField(
            'release_date',
            'Release date',
            'Once published, the survey appears at this time.',
          )}
          {survey?.state === 'closed'
            ? null
            : dateField(
                'closes_at',
                'Closes (optional)',
                'Answers stop at this time; blank for none.',
              )}
          <Field
            label="Slot"
            hint={
              survey
                ? 'Its place among the bricks (1 is first); the one there moves down. The Surveys tab reorders them too.'
                : 'Its place among the bricks (1 is first); the one there moves down. Leave blank to add it after the last.'
            }
            error={errors.slot?.message}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input survey-form__slot"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                {...registerText('slot')}
              />
            )}
          </Field>
        </div>
      </fieldset>

      <div className="survey-form__actions">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : saveLabel}
        </button>
        {survey && isDirty && !isSubmitting ? (
          <p className="survey-form__dirty" role="status">
            Unsaved changes
          </p>
        ) : null}
      </div>
    </form>
  );
}

function GenrePicker({
  control,
  onPick,
  genres,
  failed,
  error,
}: {
  control: ReturnType<typeof useForm<SurveyFormValues>>['control'];
  onPick: () => void;
  genres: AdminGenre[] | undefined;
  failed: boolean;
  error: string | undefined;
}) {
  return (
    <fieldset className={`choice-group${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">Genres</legend>
      <p className="field__hint survey-form__hint">
        People filter the home page by genre. <Link to="/admin/genres">Manage genres</Link>
      </p>
      {failed ? (
        <p className="field__error">
          The genres could not be loaded. Reload the page to pick them.
        </p>
      ) : !genres ? (
        <p className="field__hint" aria-busy="true">
          Loading genres…
        </p>
      ) : genres.length === 0 ? (
        <p className="field__hint">
          No genres yet. <Link to="/admin/genres">Add the first genre</Link>.
        </p>
      ) : (
        <Controller
          control={control}
          name="genres"
          render={({ field }) => (
            <div className="choice-group__options">
              {genres.map((g) => {
                const checked = field.value.includes(g.unique_GID);
                return (
                  <label key={g.unique_GID} className="choice-chip choice-chip--check">
                    <input
                      type="checkbox"
                      checked={checked}
                      onChange={() => {
                        onPick();
                        field.onChange(
                          checked
                            ? field.value.filter((v) => v !== g.unique_GID)
                            : [...field.value, g.unique_GID],
                        );
                      }}
                    />
                    <span>{g.genre_name}</span>
                  </label>
                );
              })}
            </div>
          )}
        />
      )}
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The variant as its two choices: when the graphs come, and how big the brick is. */
function VariantPicker({
  value,
  onChange,
}: {
  value: SurveyVariant;
  onChange: (variant: SurveyVariant) => void;
}) {
  const { feedback, size } = splitVariant(value);
  return (
    <div className="variant-picker">
      <fieldset className="choice-group">
        <legend className="field__label">Feedback (variant {feedback})</legend>
        <div className="variant-picker__options">
          {(Object.keys(FEEDBACK_LABELS) as Feedback[]).map((f) => (
            <label key={f} className="option-card">
              <input
                type="radio"
                name="variant-feedback"
                value={f}
                checked={feedback === f}
                onChange={() => onChange(joinVariant(f, size))}
              />
              <span className="option-card__body">
                <span className="option-card__title">
                  {f} · {FEEDBACK_LABELS[f].label}
                </span>
                <span className="option-card__note">{FEEDBACK_LABELS[f].note}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="choice-group">
        <legend className="field__label">Brick size</legend>
        <div className="choice-group__options">
          {(Object.keys(SIZE_LABELS) as BrickSize[]).map((s) => (
            <label key={s} className="choice-chip">
              <input
                type="radio"
                name="variant-size"
                value={s}
                checked={size === s}
                onChange={() => onChange(joinVariant(feedback, s))}
              />
              <span>{SIZE_LABELS[s]}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
