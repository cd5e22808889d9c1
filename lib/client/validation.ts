// GitLab's 400 bodies split for forms: `{"message":{"attr":["msg"]}}` (model validation) gives messages per
// attribute; anything else (Grape's `{"error":"..."}`, a plain message, a network failure) is general.
import { ApiError } from './api';
import { plainReason } from './error-text';

export interface ValidationMessages {
  byAttribute: Record<string, string[]>;
  general: string[];
}

/**
 * `fullMessages` maps attribute -> its human name ("expires_at" -> "Expires at") for endpoints that answer
 * with Rails' full messages joined into one sentence (`{"message":"Name can't be blank and Expires at
 * cannot be a date in the past"}`, as token creation does): those sentences are split back per attribute.
 */
export function validationMessages(error: unknown, fullMessages: Record<string, string> = {}): ValidationMessages {
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
  // 422 (token creation) or 400 (runner creation, POST /user/runners) carry Rails' full messages.
  if (typeof hash === 'string' && error instanceof ApiError && (error.status === 422 || error.status === 400) && Object.keys(fullMessages).length) {
    // Grape's bad_request! puts "400 Bad request - " before the sentence.
    return splitByAttribute(hash.replace(/^\d{3} [A-Za-z ]+ - /, ''), fullMessages, /(?:, | and )(?=[A-Z])/);
  }
  // Everything else in plain words (no status codes), as every refusal on the dashboard.
  out.general.push(plainReason(error));
  return out;
}

/**
 * Grape's parameter errors (400 `{"error":"version_prefix is invalid, status does not have a valid value"}`)
 * per parameter, for pages that show each beside its filter. Other failures are general.
 */
export function parameterErrors(error: unknown, params: readonly string[]): ValidationMessages {
  const body = error instanceof ApiError && error.status === 400 ? (error.body as { error?: unknown } | null) : null;
  if (typeof body?.error !== 'string') return validationMessages(error);
  const names = Object.fromEntries(params.map((p) => [p, p]));
  return splitByAttribute(body.error, names, new RegExp(`, (?=(?:${params.join('|')}) )`));
}

/** One sentence of messages back into messages per attribute; each starts with the attribute's name. */
function splitByAttribute(sentence: string, names: Record<string, string>, separator: RegExp): ValidationMessages {
  const out: ValidationMessages = { byAttribute: {}, general: [] };
  for (const part of sentence.split(separator)) {
    const attr = Object.keys(names).find((a) => part.startsWith(`${names[a]} `));
    if (attr) (out.byAttribute[attr] ??= []).push(part.slice(names[attr].length + 1));
    else out.general.push(part);
  }
  return out;
}
