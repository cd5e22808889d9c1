import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchTemplate, scanTemplates } from './routes';

const templates = scanTemplates(path.resolve(import.meta.dirname, '..', '..', 'app'));

describe('route templates for request metrics', () => {
  it('labels API paths by their route file, static segments before dynamic ones', () => {
    expect(matchTemplate(templates, '/api/v4/runners/42')).toBe('/api/v4/runners/:id');
    expect(matchTemplate(templates, '/api/v4/runners/all')).toBe('/api/v4/runners/all');
    expect(matchTemplate(templates, '/api/v4/runners/verify')).toBe('/api/v4/runners/verify');
    expect(matchTemplate(templates, '/api/v4/jobs/request')).toBe('/api/v4/jobs/request');
  });

  it('labels pages without their route groups, and unknown API paths by the catch-all', () => {
    expect(matchTemplate(templates, '/admin/runners')).toBe('/admin/runners');
    expect(matchTemplate(templates, '/-/health')).toBe('/-/health');
    expect(matchTemplate(templates, '/api/v4/no/such/thing')).toBe('/api/v4/*');
  });

  it('keeps the label set bounded: two different ids give one label', () => {
    const a = matchTemplate(templates, '/api/v4/runners/1');
    const b = matchTemplate(templates, '/api/v4/runners/999999');
    expect(a).toBe(b);
  });
});
