import { describe, expect, it } from 'vitest';
import { redactPath } from './redact';

describe('redactPath', () => {
  it('filters token-shaped segments', () => {
    expect(redactPath('/api/v4/glpat-abcdefghijklmnopqrst')).toBe('/api/v4/[FILTERED]');
    expect(redactPath('/api/v4/runners/glrt-t1_AbCdEfGhIjKlMnOpQrSt/x')).toBe('/api/v4/runners/[FILTERED]/x');
    expect(redactPath('/api/v4/GR1348941abcdef')).toBe('/api/v4/[FILTERED]');
    expect(redactPath('/api/v4/t1_Xy9kQ2mZpL0vB7nR4wTa')).toBe('/api/v4/[FILTERED]');
    expect(redactPath('/api/v4/glpat%2Dabc')).toBe('/api/v4/[FILTERED]');
  });

  it('keeps ordinary segments: ids, names, encoded project paths and commit SHAs', () => {
    for (const path of [
      '/api/v4/projects/123/merge_requests/7/context_commits',
      '/api/v4/projects/acme%2Fwidgets',
      '/api/v4/projects/1/repository/commits/0123456789abcdef0123456789abcdef01234567',
      '/api/v4/runners/reset_registration_token',
      '/api/v4/personal_access_tokens/self',
      '/admin/runners',
    ]) {
      expect(redactPath(path)).toBe(path);
    }
  });
});
