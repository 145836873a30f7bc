import type { AuditEntry } from '@candor/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { actionErrorText, describeAuditAction, describeAuditTarget } from './wording';

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
    expect(describeAuditAction(entry('results.export', { format: 'csv' }))).toBe(
      "exported a survey's results as CSV",
    );
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

  it('names the target: a short account or survey id, or the answer number', () => {
    expect(describeAuditTarget('user:3f2a9c1e-0000-4000-8000-000000000001')).toBe(
      'Account 3f2a9c1e',
    );
    expect(describeAuditTarget('answer:12')).toBe('Written answer #12');
    expect(describeAuditTarget('survey:9c0ffee0-0000-4000-8000-000000000001')).toBe(
      'Survey 9c0ffee0',
    );
    expect(describeAuditTarget('genre:x')).toBe('genre:x');
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
});
