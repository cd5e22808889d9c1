import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MONITORING_PATHS } from './monitoring';
import { matchTemplate, scanTemplates } from './routes';

const appDir = path.resolve(import.meta.dirname, '..', '..', 'app');
const templates = scanTemplates(appDir);

describe('route templates for request metrics', () => {
  it('labels API paths by their route file, static segments before dynamic ones', () => {
    expect(matchTemplate(templates, '/api/v4/runners/42')).toBe('/api/v4/runners/:id');
    expect(matchTemplate(templates, '/api/v4/runners/all')).toBe('/api/v4/runners/all');
    expect(matchTemplate(templates, '/api/v4/runners/verify')).toBe('/api/v4/runners/verify');
    expect(matchTemplate(templates, '/api/v4/jobs/request')).toBe('/api/v4/jobs/request');
  });

  it('labels pages without their route groups, and unknown API paths by the catch-all', () => {
    expect(matchTemplate(templates, '/admin/runners')).toBe('/admin/runners');
    expect(matchTemplate(templates, '/api/v4/no/such/thing')).toBe('/api/v4/*');
  });

  it('labels an optional catch-all as `*`, like a catch-all', () => {
    // app/api/[[...path]]: every /api path outside v3, v4 and next-auth.
    expect(matchTemplate(templates, '/api/v5/projects')).toBe('/api/*');
    expect(matchTemplate(templates, '/api')).toBe('/api/*');
  });

  it('labels the paths the http wrapper serves itself by their own name', () => {
    const served = scanTemplates(appDir, MONITORING_PATHS);
    for (const p of MONITORING_PATHS) expect(matchTemplate(served, p)).toBe(p);
    expect(matchTemplate(served, '/-/metrics/extra')).not.toBe('/-/metrics');
  });

  it('keeps the label set bounded: two different ids give one label', () => {
    const a = matchTemplate(templates, '/api/v4/runners/1');
    const b = matchTemplate(templates, '/api/v4/runners/999999');
    expect(a).toBe(b);
  });
});
