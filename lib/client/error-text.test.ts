// The dashboard's error wording: GitLab's status-prefixed bodies become sentences, plain API reasons are kept.
import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from './api';
import { errorText, plainReason } from './error-text';

const apiError = (status: number, body: unknown) => new ApiError(status, errorMessage(status, body), body);

describe('plainReason', () => {
  it('drops the status prefix and keeps a reason that is already plain', () => {
    expect(plainReason(apiError(403, { message: '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead' }))).toBe(
      'You cannot unassign a runner from the owner project. Delete the runner instead.',
    );
    expect(plainReason(apiError(400, { message: 'Context commits array size should not be more than 20' }))).toBe(
      'Context commits array size should not be more than 20.',
    );
    expect(plainReason(apiError(400, { error: 'commits is missing' }))).toBe('Commits is missing.');
  });

  it('words terse policy answers and bare statuses', () => {
    expect(plainReason(apiError(403, { message: '403 Forbidden - Runner is locked' }))).toMatch(/^This runner is locked/);
    expect(plainReason(apiError(403, { message: '403 Forbidden - No access granted' }))).toBe('You do not have permission to do this.');
    expect(plainReason(apiError(403, { message: '403 Forbidden' }))).toBe('You do not have permission to do this.');
    expect(plainReason(apiError(401, { message: '401 Unauthorized' }))).toMatch(/Sign in again/);
    expect(plainReason(apiError(404, { message: '404 Project Not Found' }))).toBe(
      'The project could not be found. It may have been deleted, or you may not have access to it.',
    );
    expect(plainReason(apiError(502, null))).toBe('Something went wrong on the server. Please try again.');
    expect(plainReason(apiError(429, { message: 'Retry later' }))).toMatch(/^Too many requests/);
  });

  it('never shows a status code or a raw status phrase', () => {
    for (const [status, body] of [
      [403, { message: '403 Forbidden - No access granted' }],
      [404, { message: '404 Not found' }],
      [409, { message: '409 Conflict' }],
      [400, null],
    ] as const) {
      const text = plainReason(apiError(status, body));
      expect(text).not.toMatch(/\b\d{3}\b|Forbidden|Not Found|Conflict|status/);
    }
  });

  it('keeps a network failure and other errors readable', () => {
    expect(plainReason(new ApiError(0, 'Could not reach the server. Check your connection and try again.', null))).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
    expect(plainReason(new Error('boom'))).toBe('Boom.');
  });
});

describe('errorText', () => {
  it("puts GitLab's failure wording before the reason", () => {
    expect(errorText(apiError(403, { message: '403 Forbidden - No access granted' }), 'Failed to remove context commits.')).toBe(
      'Failed to remove context commits. You do not have permission to do this.',
    );
    expect(errorText(apiError(403, { message: '403 Forbidden' }))).toBe('You do not have permission to do this.');
  });
});
