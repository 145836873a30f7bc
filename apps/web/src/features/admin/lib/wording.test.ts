import { type AuditEntry, AuditActionSchema } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  AUDIT_ACTION_LABELS,
  actionErrorText,
  describeAuditAction,
  describeAuditTarget,
} from './wording';

const entry = (action: AuditEntry['action'], details: AuditEntry['details'] = {}) => ({
  action,
  details,
});

describe('audit wording', () => {
  it('says every action in words', () => {
    expect(describeAuditAction(entry('signup.approve'))).toBe('approved a signup');
    expect(describeAuditAction(entry('signup.reject'))).toBe('rejected a signup');
    expect(describeAuditAction(entry('answer.approve'))).toBe('approved a written answer');
    expect(describeAuditAction(entry('answer.hide'))).toBe('hid a written answer');
    expect(describeAuditAction(entry('user.suspend'))).toBe('suspended an account');
    expect(describeAuditAction(entry('user.unsuspend'))).toBe('lifted a suspension');
    expect(
      describeAuditAction(entry('user.number_revealed', { reason: 'Support ticket 12' })),
    ).toBe('revealed a whole number, for the reason “Support ticket 12”');
    expect(describeAuditAction(entry('results.export', { format: 'csv' }))).toBe(
      "exported a survey's results as CSV",
    );
    expect(describeAuditAction(entry('results.export', { format: 'panel-csv' }))).toBe(
      "exported a survey's panel completions",
    );
    // A research token's reads, each by what it read.
    for (const [read, said] of [
      ['surveys', 'listed surveys'],
      ['codebook', 'read a codebook'],
      ['reach', 'read how far people got'],
    ] as const) {
      expect(describeAuditAction(entry('token.use', { read, name: 'Lab' }))).toBe(
        `${said} with the research token “Lab”`,
      );
    }
  });

  it('says every authoring action in words', () => {
    const said: Array<[AuditEntry['action'], string]> = [
      ['survey.create', 'created a survey'],
      ['survey.update', 'edited a survey'],
      ['survey.publish', 'published a survey'],
      ['survey.close', 'closed a survey'],
      ['survey.reopen', 'reopened a survey'],
      ['survey.order', 'reordered the surveys on the home page'],
      ['question.create', 'added a question'],
      ['question.update', 'edited a question'],
      ['question.delete', 'deleted a question'],
      ['question.order', "reordered a survey's questions"],
      ['genre.create', 'added a genre'],
      ['genre.rename', 'renamed a genre'],
      ['genre.delete', 'deleted a genre'],
      ['image.upload', 'uploaded an image'],
    ];
    for (const [action, words] of said) expect(describeAuditAction(entry(action))).toBe(words);
    // With the details the API records, the phrase names what changed.
    expect(describeAuditAction(entry('survey.create', { name: 'Night Owls' }))).toBe(
      'created the survey “Night Owls”',
    );
    expect(describeAuditAction(entry('survey.update', { name: 'x'.repeat(80) }))).toBe(
      `edited the survey “${'x'.repeat(59)}…”`,
    );
    expect(describeAuditAction(entry('survey.delete', { name: 'Night Owls' }))).toBe(
      'deleted the draft “Night Owls”',
    );
    expect(
      describeAuditAction(entry('survey.delete', { name: 'Night Owls', answered: true })),
    ).toBe('deleted the survey “Night Owls” with its answers');
    expect(describeAuditAction(entry('question.create', { type: 'Open' }))).toBe(
      'added a written-answer question',
    );
    expect(describeAuditAction(entry('genre.rename', { from: 'Sex', to: 'Intimacy' }))).toBe(
      'renamed a genre from “Sex” to “Intimacy”',
    );
    expect(describeAuditAction(entry('genre.delete', { name: 'Money', surveys: 3 }))).toBe(
      'deleted the genre “Money” (used by 3 surveys)',
    );
    expect(describeAuditAction(entry('image.upload', { width: 1600, height: 900 }))).toBe(
      'uploaded an image (1600×900)',
    );
    // Every action of the contract has words (a new one fails here until it gets some).
    for (const action of AuditActionSchema.options) {
      expect(describeAuditAction(entry(action))).toMatch(/^[a-z]/);
    }
  });

  it('names both roles of a role change, and never prints a value it does not know', () => {
    expect(describeAuditAction(entry('user.role', { from: 'member', to: 'moderator' }))).toBe(
      'changed a role from member to moderator',
    );
    expect(describeAuditAction(entry('user.role', { from: null, to: 'admin' }))).toBe(
      'changed a role to admin',
    );
    expect(describeAuditAction(entry('user.role', { from: '<b>', to: 42 }))).toBe('changed a role');
  });

  it('names the target by the name the API gives, else by what it was: never a bare id', () => {
    const target = (t: string, target_label: string | null = null, details = {}) =>
      describeAuditTarget({ target: t, target_label, details });
    const uuid = '3f2a9c1e-0000-4000-8000-000000000001';
    expect(target(`user:${uuid}`, '+44 •••• ••3456')).toBe('+44 •••• ••3456');
    expect(target(`user:${uuid}`)).toBe('An erased account');
    expect(target(`survey:${uuid}`, 'Money Talks')).toBe('Money Talks');
    expect(target(`survey:${uuid}`, null, { name: 'Old one' })).toBe(
      'The survey “Old one” (deleted)',
    );
    expect(target(`survey:${uuid}`)).toBe('A deleted survey');
    expect(target(`question:${uuid}`, 'Q'.repeat(120))).toBe(`${'Q'.repeat(89)}…`);
    expect(target(`question:${uuid}`)).toBe('A deleted question');
    expect(target(`genre:${uuid}`, 'Money')).toBe('Money');
    expect(target(`genre:${uuid}`)).toBe('A deleted genre');
    expect(target('answer:12')).toBe('Written answer #12');
    expect(target('image:9b1c2d3e4f5a6b7c.webp')).toBe('Image 9b1c2d3e');
    expect(target('surveys')).toBe('All surveys');
    expect(target('thing:x')).toBe('thing:x');
    expect(target('genre:')).toBe('genre:');
    for (const said of [target(`user:${uuid}`), target(`survey:${uuid}`)]) {
      expect(said).not.toContain('3f2a9c1e');
    }
  });

  it('offers every action in the filter', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...AuditActionSchema.options].sort());
  });
});

describe('action errors', () => {
  it("shows the server's detail for a refusal and a plain sentence otherwise", () => {
    const own = new ApiError(403, 'FORBIDDEN', 'Ask another admin to change your own account.');
    expect(actionErrorText(own, 'Could not change the role.')).toBe(
      'Ask another admin to change your own account.',
    );
    expect(actionErrorText(new ApiError(404, 'NOT_FOUND', 'Not found.'), 'x')).toMatch(
      /no longer exists/,
    );
    expect(actionErrorText(new ApiError(500, 'INTERNAL', 'boom'), 'Could not hide it.')).toBe(
      'Could not hide it.',
    );
    expect(actionErrorText(new Error('x'), 'Fallback.')).toBe('Fallback.');
  });

  it('says why an authoring change was refused, in the words of the server', () => {
    const answered = new ApiError(409, 'ANSWERS_EXIST', '“Yes” has answers: it cannot be removed.');
    expect(actionErrorText(answered, 'x')).toBe('“Yes” has answers: it cannot be removed.');
    const state = new ApiError(409, 'INVALID_STATE', 'Only a draft can be published.');
    expect(actionErrorText(state, 'x')).toBe('Only a draft can be published.');
    const empty = new ApiError(400, 'VALIDATION_FAILED', 'x', {
      non_field_errors: ['Add a question before publishing.'],
    });
    expect(actionErrorText(empty, 'x')).toBe('Add a question before publishing.');
    const field = new ApiError(400, 'VALIDATION_FAILED', 'x', { name: ['Too long.'] });
    expect(actionErrorText(field, 'Could not save.')).toBe('Could not save.');
  });
});
