// [MEMBERS] Issue 24's rule for group and project members: access_level and expires_at are written by
// POST/PUT .../members and read back exactly; the user's keys and created_at/created_by are read-only.
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { to, walkSettable } from '../support/round-trip';

const READ_ONLY = {
  id: "the member's user (UserBasic)",
  username: "the member's user",
  public_email: "the member's user",
  name: "the member's user",
  state: "the member's user",
  locked: "the member's user",
  avatar_url: "the member's user",
  web_url: "the member's user",
  created_at: 'set when the membership is made',
  created_by: 'who made the membership',
};

for (const kind of ['group', 'project'] as const) {
  describe(`[MEMBERS] ${kind} members round-trip`, () => {
    it('access_level and expires_at are settable and read back; every other key is read-only with a reason', async () => {
      const owner = await createUser();
      const source = kind === 'group' ? await createGroup(owner.token) : await createProject(owner.token);
      const base = `/${kind}s/${source.id}/members`;
      const user = await createUser();
      const made = kind === 'group' ? await addGroupMember(owner.token, source.id, user.id, 30) : await addProjectMember(owner.token, source.id, user.id, 30);
      expect(made).toMatchObject({ access_level: 30, expires_at: null });
      const walked = await walkSettable({
        entity: `${kind} member`,
        read: async () => (await api('GET', `${base}/${user.id}`, { token: owner.token })).body,
        // PUT requires access_level; each write sends the current one alongside.
        update: async (params) => {
          const current = (await api('GET', `${base}/${user.id}`, { token: owner.token })).body;
          return api('PUT', `${base}/${user.id}`, { token: owner.token, json: { access_level: current.access_level, ...params } });
        },
        settable: {
          access_level: { next: to(40) },
          expires_at: { next: to('2999-06-30') },
        },
        readOnly: READ_ONLY,
      });
      expect(walked).toEqual(['access_level', 'expires_at']);
      // expires_at is cleared with an empty value, as GitLab.
      const cleared = await api('PUT', `${base}/${user.id}`, { token: owner.token, json: { access_level: 40, expires_at: '' } });
      expect(cleared.body.expires_at).toBeNull();
      // Created with both at once.
      const other = await createUser();
      const res = await api('POST', base, { token: owner.token, json: { user_id: other.id, access_level: 20, expires_at: '2998-01-02' } });
      expect(res.body).toMatchObject({ access_level: 20, expires_at: '2998-01-02' });
      expect((await api('GET', `${base}/${other.id}`, { token: owner.token })).body).toMatchObject({ access_level: 20, expires_at: '2998-01-02' });
    });

    it("an update with only unknown parameters answers GitLab's 400 (access_level is required)", async () => {
      const owner = await createUser();
      const source = kind === 'group' ? await createGroup(owner.token) : await createProject(owner.token);
      const user = await createUser();
      if (kind === 'group') await addGroupMember(owner.token, source.id, user.id, 30);
      else await addProjectMember(owner.token, source.id, user.id, 30);
      const res = await api('PUT', `/${kind}s/${source.id}/members/${user.id}`, { token: owner.token, json: { member_role: 'x', notification_level: 3 } });
      expect(res).toMatchObject({ status: 400, body: { error: 'access_level is missing, access_level does not have a valid value' } });
    });
  });
}
