// GitLab's error bodies split for forms: per-attribute validation messages versus everything else.
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { validationMessages } from './validation';

describe('[RUNNERS] validationMessages', () => {
  it('keeps model validation messages per attribute', () => {
    const body = { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'], maximum_timeout: ['needs to be at least 10 minutes'] } };
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
      general: ['access_level does not have a valid value'],
    });
    expect(validationMessages(new ApiError(403, '403 Forbidden - No access granted', { message: '403 Forbidden - No access granted' })).general).toEqual([
      '403 Forbidden - No access granted',
    ]);
    expect(validationMessages(new Error('offline')).general).toEqual(['offline']);
    expect(validationMessages(null)).toEqual({ byAttribute: {}, general: [] });
  });
});
