// The profile and admin attributes of POST and PUT /users (GitLab's `optional_attributes`) as columns, with
// the User/UserDetail model's validation messages. Each is shown back by the user entities as written.
import type { Prisma } from '../db/client';
import type { CreateUserInput, UpdateUserInput } from './schema';

type Input = Partial<Pick<CreateUserInput & UpdateUserInput, keyof CreateUserInput & keyof UpdateUserInput>>;

/** Gitlab::Themes and Gitlab::ColorSchemes ids. */
const THEME_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const COLOR_SCHEME_IDS = [1, 2, 3, 4, 5, 6];
const MAX_LENGTH: Record<string, number> = {
  bio: 255,
  pronouns: 50,
  skype: 500,
  linkedin: 500,
  twitter: 500,
  discord: 500,
  location: 500,
  organization: 500,
  job_title: 500,
};
const DISCORD_ID = /^\d{17,20}$/;

function validUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The columns the request writes and the model errors (`{attribute: [messages]}`); unset parameters stay as they are. */
export function profileData(i: Input): { data: Prisma.UserUncheckedUpdateInput; errors: Record<string, string[]> } {
  const data: Prisma.UserUncheckedUpdateInput = {};
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  // Text attributes: a JSON null clears them.
  const text = {
    skype: 'skype',
    linkedin: 'linkedin',
    twitter: 'twitter',
    discord: 'discord',
    website_url: 'websiteUrl',
    organization: 'organization',
    bio: 'bio',
    location: 'location',
    job_title: 'jobTitle',
  } as const;
  for (const [param, column] of Object.entries(text) as [keyof typeof text, (typeof text)[keyof typeof text]][]) {
    const v = i[param];
    if (v === undefined) continue;
    const value = v ?? '';
    if (MAX_LENGTH[param] && value.length > MAX_LENGTH[param]) add(param, `is too long (maximum is ${MAX_LENGTH[param]} characters)`);
    data[column] = value;
  }
  if (i.discord && !DISCORD_ID.test(i.discord)) add('discord', 'must contain only a discord user ID.');
  if (i.website_url && !validUrl(i.website_url)) add('website_url', 'is not a valid URL');
  if (i.pronouns !== undefined) {
    if (i.pronouns && i.pronouns.length > MAX_LENGTH.pronouns) add('pronouns', `is too long (maximum is ${MAX_LENGTH.pronouns} characters)`);
    data.pronouns = i.pronouns || null;
  }
  if (i.note !== undefined) data.note = i.note || null;
  if (i.projects_limit !== undefined && i.projects_limit !== null) {
    if (i.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
    data.projectsLimit = i.projects_limit;
  }
  if (i.theme_id !== undefined && i.theme_id !== null) {
    if (!THEME_IDS.includes(i.theme_id)) add('theme_id', `${i.theme_id} is not a valid theme`);
    data.themeId = i.theme_id;
  }
  if (i.color_scheme_id !== undefined && i.color_scheme_id !== null) {
    if (!COLOR_SCHEME_IDS.includes(i.color_scheme_id)) add('color_scheme_id', `${i.color_scheme_id} is not a valid color scheme`);
    data.colorSchemeId = i.color_scheme_id;
  }
  const flags = { admin: 'admin', can_create_group: 'canCreateGroup', external: 'external', private_profile: 'privateProfile' } as const;
  for (const [param, column] of Object.entries(flags) as [keyof typeof flags, (typeof flags)[keyof typeof flags]][]) {
    const v = i[param];
    if (v !== undefined && v !== null) data[column] = v;
  }
  if (i.public_email !== undefined) data.publicEmail = i.public_email || null;
  return { data, errors };
}
