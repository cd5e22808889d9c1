// GitLab's error bodies split for forms: per-attribute validation messages versus everything else.
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { parameterErrors, validationMessages } from './validation';

describe('[RUNNERS] validationMessages', () => {
  it('keeps model validation messages per attribute', () => {
    const body = {
      message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'], maximum_timeout: ['needs to be at least 10 minutes'] },
    };
    expect(validationMessages(new ApiError(400, 'x', body))).toEqual({
      byAttribute: {
        tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
        maximum_timeout: ['needs to be at least 10 minutes'],
      },
      general: [],
    });
  });

  it('treats Grape errors, plain messages and other failures as general', () => {
    expect(validationMessages(new ApiError(400, 'access_level does not have a valid value', { error: 'access_level does not have a valid value' }))).toEqual({
      byAttribute: {},
      general: ['access_level does not have a valid value.'],
    });
    expect(validationMessages(new ApiError(403, '403 Forbidden - No access granted', { message: '403 Forbidden - No access granted' })).general).toEqual([
      'You do not have permission to do this.',
    ]);
    expect(validationMessages(new Error('offline')).general).toEqual(['Offline.']);
    expect(validationMessages(null)).toEqual({ byAttribute: {}, general: [] });
  });
});

describe('[TOKENS] validationMessages with full messages', () => {
  const names = { name: 'Name', expires_at: 'Expires at' };
  it('splits a 422 to_sentence back per attribute; unknown attributes stay general', () => {
    const body = { message: "Name can't be blank, Sudo can only be enabled for administrators and Expires at cannot be a date in the past" };
    expect(validationMessages(new ApiError(422, body.message, body), names)).toEqual({
      byAttribute: { name: ["can't be blank"], expires_at: ['cannot be a date in the past'] },
      general: ['Sudo can only be enabled for administrators'],
    });
    const one = { message: 'Expires at must be before 2027-11-24' };
    expect(validationMessages(new ApiError(422, one.message, one), names)).toEqual({ byAttribute: { expires_at: ['must be before 2027-11-24'] }, general: [] });
  });

  it('words other statuses and bodies plainly (lib/client/error-text.ts)', () => {
    const body = { message: '403 Forbidden' };
    expect(validationMessages(new ApiError(403, body.message, body), names)).toEqual({ byAttribute: {}, general: ['You do not have permission to do this.'] });
    expect(validationMessages(new ApiError(422, 'Name x', { message: 'Name x' }))).toEqual({ byAttribute: {}, general: ['Name x.'] });
  });
});

describe('[RUNNERS] parameterErrors', () => {
  const params = ['version_prefix', 'status', 'tag_list'];
  it("puts each of Grape's parameter errors on its parameter", () => {
    const body = { error: 'version_prefix is invalid, status does not have a valid value' };
    expect(parameterErrors(new ApiError(400, body.error, body), params)).toEqual({
      byAttribute: { version_prefix: ['is invalid'], status: ['does not have a valid value'] },
      general: [],
    });
    const other = { error: 'page is invalid' };
    expect(parameterErrors(new ApiError(400, other.error, other), params)).toEqual({ byAttribute: {}, general: ['page is invalid'] });
  });

  it('leaves other failures general', () => {
    expect(parameterErrors(new ApiError(500, 'boom', { message: '500 Internal Server Error' }), params)).toEqual({
      byAttribute: {},
      general: ['Something went wrong on the server. Please try again.'],
    });
    expect(parameterErrors(null, params)).toEqual({ byAttribute: {}, general: [] });
  });

  it('splits the 400 sentence POST /user/runners answers back per attribute', () => {
    const body = {
      message:
        '400 Bad request - Tags list can not be empty when runner is not allowed to pick untagged jobs and Maximum timeout needs to be at least 10 minutes',
    };
    expect(validationMessages(new ApiError(400, body.message, body), { tags_list: 'Tags list', maximum_timeout: 'Maximum timeout' })).toEqual({
      byAttribute: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'], maximum_timeout: ['needs to be at least 10 minutes'] },
      general: [],
    });
  });
});
