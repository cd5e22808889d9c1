// Runner model validations shared by every write (register, /user/runners, PUT /runners/:id), with
// GitLab's attribute keys and messages: {"message": {"tags_list": ["…"]}}.
import { MAX_INT4 } from '../db/ids';
import { TAG_LIST_MAX_LENGTH, TAG_NAME_MAX_LENGTH, tooLongTags } from './tags';

export interface RunnerAttributes {
  description?: string | null;
  name?: string | null;
  maintenanceNote?: string | null;
  maximumTimeout?: number | null;
  runUntagged: boolean;
  tagList: readonly string[];
  /** The >50 check runs only when the tag list changed (a runner may keep an older, longer list). */
  tagListChanged: boolean;
}

export type ValidationErrors = Record<string, string[]>;

const tooLong = (max: number) => `is too long (maximum is ${max} characters)`;

/** Returns GitLab's `{attribute: [messages]}`; empty when the runner is valid. */
export function validateRunnerAttributes(a: RunnerAttributes): ValidationErrors {
  const errors: ValidationErrors = {};
  const add = (key: string, msg: string) => (errors[key] ??= []).push(msg);
  if (a.description && [...a.description].length > 1024) add('description', tooLong(1024));
  if (a.name && [...a.name].length > 256) add('name', tooLong(256));
  if (a.tagListChanged && a.tagList.length > TAG_LIST_MAX_LENGTH) {
    add('tags_list', `Too many tags specified. Please limit the number of tags to ${TAG_LIST_MAX_LENGTH}`);
  }
  // GitLab refuses such a tag when it creates the Ci::Tag; checked here so nothing is half-written.
  if (a.tagListChanged && tooLongTags(a.tagList).length) add('tags_list', `contains a tag that is too long (maximum is ${TAG_NAME_MAX_LENGTH} characters)`);
  if (!a.runUntagged && a.tagList.length === 0) add('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (a.maximumTimeout !== null && a.maximumTimeout !== undefined && a.maximumTimeout < 600) add('maximum_timeout', 'needs to be at least 10 minutes');
  // An integer column: GitLab would fail with a 500 here; a 400 names the limit instead.
  if (typeof a.maximumTimeout === 'number' && a.maximumTimeout > MAX_INT4) add('maximum_timeout', `must be less than or equal to ${MAX_INT4}`);
  if (a.maintenanceNote && [...a.maintenanceNote].length > 1024) add('maintenance_note', tooLong(1024));
  return errors;
}

const hasErrors = (e: ValidationErrors) => Object.keys(e).length > 0;
export { hasErrors };

/** Rails' full messages ("Tags list can not be empty …") joined as `to_sentence` does. */
export function fullMessagesSentence(errors: ValidationErrors): string {
  const msgs = Object.entries(errors).flatMap(([attr, list]) => {
    const human = attr.replace(/_/g, ' ');
    return list.map((m) => `${human.charAt(0).toUpperCase()}${human.slice(1)} ${m}`);
  });
  if (msgs.length <= 1) return msgs.join('');
  if (msgs.length === 2) return `${msgs[0]} and ${msgs[1]}`;
  return `${msgs.slice(0, -1).join(', ')}, and ${msgs[msgs.length - 1]}`;
}
