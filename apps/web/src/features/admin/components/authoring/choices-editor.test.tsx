import { MAX_CHOICES } from '@candor/contracts';
import { fireEvent, render, screen } from '@testing-library/preact';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { type QuestionFormValues, newQuestionValues } from '../../lib/authoring';
import { ChoicesEditor } from './choices-editor';

function Harness({
  labels,
  answered,
  onValues,
}: {
  labels: string[];
  answered: string[];
  onValues: (labels: string[]) => void;
}) {
  const form = useForm<QuestionFormValues>({
    defaultValues: {
      ...newQuestionValues(),
      choices: labels.map((label) => ({ label, original: label })),
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onValues(form.getValues('choices').map((c) => c.label));
      }}
    >
      <ChoicesEditor
        control={form.control}
        register={form.register}
        errors={form.formState.errors}
        locked={answered}
      />
      <button type="submit">Read</button>
    </form>
  );
}

const choice = (n: number) =>
  screen.getByRole<HTMLInputElement>('textbox', { name: `Choice ${n}` });

function setup(labels: string[], answered: string[] = []) {
  const onValues = vi.fn();
  render(<Harness labels={labels} answered={answered} onValues={onValues} />);
  const read = () => {
    fireEvent.click(screen.getByRole('button', { name: 'Read' }));
    return onValues.mock.calls.at(-1)?.[0] as string[];
  };
  return { read };
}

describe('ChoicesEditor', () => {
  it('locks the choices of a published survey: read-only, no remove button, and says why', () => {
    setup(['Yes', 'No', 'Maybe'], ['Yes']);
    expect(choice(1).readOnly).toBe(true);
    expect(choice(2).readOnly).toBe(false);
    expect(screen.queryByRole('button', { name: 'Remove choice 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove choice 2' })).toBeTruthy();
    expect(choice(1).getAttribute('aria-describedby')).toBeTruthy();
    const note = document.getElementById(choice(1).getAttribute('aria-describedby')!);
    expect(note?.textContent).toMatch(/can be moved, not removed or renamed/);
  });

  it('moves a locked choice, and it stays locked in its new place', () => {
    const { read } = setup(['Yes', 'No', 'Maybe'], ['Yes']);
    fireEvent.click(screen.getByRole('button', { name: 'Move choice 1 down' }));
    expect(read()).toEqual(['No', 'Yes', 'Maybe']);
    expect(choice(2).readOnly).toBe(true);
    expect(choice(1).readOnly).toBe(false);
    expect(screen.queryByRole('button', { name: 'Remove choice 2' })).toBeNull();
    // The first row cannot go up, the last cannot go down.
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Move choice 1 up' }).disabled,
    ).toBe(true);
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Move choice 3 down' }).disabled,
    ).toBe(true);
  });

  it('adds, renames and removes the unlocked rows', () => {
    const { read } = setup(['Yes', 'No']);
    fireEvent.click(screen.getByRole('button', { name: 'Add a choice' }));
    fireEvent.change(choice(3), { target: { value: 'Sometimes' } });
    fireEvent.change(choice(2), { target: { value: 'Never' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove choice 1' }));
    expect(read()).toEqual(['Never', 'Sometimes']);
  });

  it('names the automatic leave-blank choice, and stops adding at the maximum', () => {
    setup(Array.from({ length: MAX_CHOICES }, (_, i) => `Choice ${i + 1}`));
    expect(screen.getByText(/added automatically as the last choice/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add a choice' }).disabled).toBe(
      true,
    );
    expect(screen.getByText(`At most ${MAX_CHOICES} choices.`)).toBeTruthy();
  });
});
