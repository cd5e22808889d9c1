// GitLab's 400 bodies split for forms: `{"message":{"attr":["msg"]}}` (model validation) gives messages per
// attribute; anything else (Grape's `{"error":"..."}`, a plain message, a network failure) is general.
import { ApiError } from './api';

export interface ValidationMessages {
  byAttribute: Record<string, string[]>;
  general: string[];
}

export function validationMessages(error: unknown): ValidationMessages {
  const out: ValidationMessages = { byAttribute: {}, general: [] };
  if (!error) return out;
  const body = error instanceof ApiError ? (error.body as { message?: unknown } | null) : null;
  const hash = body?.message;
  if (hash && typeof hash === 'object' && !Array.isArray(hash)) {
    for (const [attr, msgs] of Object.entries(hash as Record<string, unknown>)) {
      out.byAttribute[attr] = (Array.isArray(msgs) ? msgs : [msgs]).map(String);
    }
    if (Object.keys(out.byAttribute).length) return out;
  }
  out.general.push(error instanceof Error ? error.message : String(error));
  return out;
}
