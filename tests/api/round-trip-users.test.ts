// [USERS] Issue 24's rule for users: every key of the admin's user entity (UserDetailsWithAdmin) is either
// written by POST/PUT /users and read back exactly, or in the read-only list with the reason.
import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createUser } from '../support/users';
import { flip, to, walkSettable } from '../support/round-trip';

const READ_ONLY = {
  id: 'assigned on create',
  state: 'changed by POST /users/:id/block and /unblock',
  locked: 'set by failed sign-ins, lifted by POST /users/:id/unlock',
  locked_until: 'when the sign-in lock ends, derived from the failed sign-ins (Runway extension)',
  avatar_url: 'avatars are file uploads, which Runway does not store',
  web_url: 'derived from the username',
  created_at: 'set on create',
  bot: 'Runway has no bot users',
  work_information: 'derived from job_title and organization',
  followers: 'Runway has no follows',
  following: 'Runway has no follows',
  is_followed: 'Runway has no follows',
  local_time: 'GitLab derives it from the profile time zone, which its API does not set',
  last_sign_in_at: 'written by signing in',
  confirmed_at: 'Runway confirms users on create (skip_confirmation is always in effect)',
  last_activity_on: 'written by activity',
  current_sign_in_at: 'written by signing in',
  identities: 'extern_uid/provider identities need an external sign-in provider, which Runway does not have',
  can_create_project: 'derived from projects_limit',
  two_factor_enabled: 'Runway has no two-factor authentication',
  commit_email: "GitLab takes only one of the user's verified emails; Runway users have one, the primary email",
  namespace_id: 'the personal namespace, made on create',
  created_by: 'the admin who created the user',
  email_reset_offered_at: 'Runway sends no mail',
  highest_role: 'derived from memberships',
  current_sign_in_ip: 'Runway does not keep sign-in addresses',
  last_sign_in_ip: 'Runway does not keep sign-in addresses',
  sign_in_count: 'Runway does not count sign-ins',
};

describe('[USERS] users round-trip', () => {
  it('every key of GET /users/:id (admin) is settable through PUT /users/:id and reads back, or read-only with a reason', async () => {
    const user = await createUser();
    const read = async () => (await api('GET', `/users/${user.id}`, { token: rootToken() })).body;
    const email = `${uniq('changed').replace(/-/g, '.')}@example.com`;
    const walked = await walkSettable({
      entity: 'user',
      read,
      update: (params) => api('PUT', `/users/${user.id}`, { token: rootToken(), json: params }),
      settable: {
        username: { next: to(uniq('renamed').replace(/-/g, '_')), couples: ['web_url'] },
        public_email: { next: to(`${user.username.toLowerCase()}@example.com`) },
        name: { next: to('Renamed Person') },
        bio: { next: to('a bio') },
        location: { next: to('Lisbon') },
        skype: { next: to('skype-id') },
        linkedin: { next: to('linkedin-id') },
        twitter: { next: to('twitter-id') },
        discord: { next: to('123456789012345678') },
        website_url: { next: to('https://example.com/me') },
        organization: { next: to('Acme'), couples: ['work_information'] },
        job_title: { next: to('Fleet operator'), couples: ['work_information'] },
        pronouns: { next: to('they/them') },
        email: { next: to(email), couples: ['commit_email'] },
        theme_id: { next: to(5) },
        color_scheme_id: { next: to(4) },
        projects_limit: { next: to(7) },
        can_create_group: { next: flip },
        external: { next: flip },
        private_profile: { next: flip },
        is_admin: { next: flip, params: (v) => ({ admin: v }) },
        note: { next: to('an admin note') },
      },
      readOnly: READ_ONLY,
    });
    expect(walked).toHaveLength(22);
    expect(await read()).toMatchObject({ work_information: 'Fleet operator at Acme', can_create_project: true });
  });

  it('POST /users stores the same attributes as sent', async () => {
    const username = uniq('made').replace(/-/g, '_');
    const attrs = {
      bio: 'b',
      location: 'l',
      linkedin: 'li',
      twitter: 'tw',
      discord: '12345678901234567',
      website_url: 'https://example.org',
      organization: 'Org',
      pronouns: 'she/her',
      theme_id: 2,
      color_scheme_id: 2,
      projects_limit: 0,
      can_create_group: false,
      external: true,
      private_profile: true,
      note: 'n',
    };
    const res = await api('POST', '/users', {
      token: rootToken(),
      json: { username, name: username, email: `${username}@example.com`, password: 'a-long-password-1', skip_confirmation: true, ...attrs },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ ...attrs, can_create_project: false });
    expect((await api('GET', `/users/${res.body.id}`, { token: rootToken() })).body).toMatchObject(attrs);
  });

  it("unknown parameters are ignored: an update with only unknown ones answers the user unchanged (GitLab's PUT /users/:id declares no at_least_one_of)", async () => {
    const user = await createUser();
    const before = (await api('GET', `/users/${user.id}`, { token: rootToken() })).body;
    const res = await api('PUT', `/users/${user.id}`, { token: rootToken(), json: { not_a_user_attribute: 'x', highest_role: 50 } });
    expect(res.status, res.text).toBe(200);
    expect((await api('GET', `/users/${user.id}`, { token: rootToken() })).body).toEqual(before);
  });

  it("invalid values answer the model's messages and change nothing", async () => {
    const user = await createUser();
    const res = await api('PUT', `/users/${user.id}`, {
      token: rootToken(),
      json: { projects_limit: -1, theme_id: 99, color_scheme_id: 0, discord: 'not-an-id', website_url: 'nope', bio: 'x'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        bio: ['is too long (maximum is 255 characters)'],
        discord: ['must contain only a discord user ID.'],
        website_url: ['is not a valid URL'],
        projects_limit: ['must be greater than or equal to 0'],
        theme_id: ['99 is not a valid theme'],
        color_scheme_id: ['0 is not a valid color scheme'],
      },
    });
    expect((await api('GET', `/users/${user.id}`, { token: rootToken() })).body).toMatchObject({ projects_limit: 100000, theme_id: 3, bio: '' });
  });

  it('a non-admin sees the public keys of a user as written (Entities::User)', async () => {
    const user = await createUser();
    await api('PUT', `/users/${user.id}`, { token: rootToken(), json: { pronouns: 'he/him', linkedin: 'in', note: 'admins only' } });
    const other = await createUser();
    const seen = (await api('GET', `/users/${user.id}`, { token: other.token })).body;
    expect(seen).toMatchObject({ pronouns: 'he/him', linkedin: 'in' });
    expect(seen).not.toHaveProperty('note');
  });
});
