// A group's instance-runner setting: PUT /groups/:id with GitLab's `shared_runners_setting` (Owners and
// admins), its cascade onto subgroups and projects, what GET /groups/:id answers, and how projects and new
// subgroups/projects honour it.
import { beforeEach, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner } from './runners-admin-support';

type Setting = 'enabled' | 'disabled_and_overridable' | 'disabled_and_unoverridable';

const put = (id: number, setting: string, token = rootToken()) => api('PUT', `/groups/${id}`, { token, json: { shared_runners_setting: setting } });
const settingOf = async (id: number): Promise<Setting> => (await api('GET', `/groups/${id}`, { token: rootToken() })).body.shared_runners_setting;
const projectShared = async (id: number): Promise<boolean> => (await api('GET', `/projects/${id}`, { token: rootToken() })).body.shared_runners_enabled;

describe('[RUNNERS] group instance-runner setting', () => {
  let group: { id: number }, sub: { id: number }, project: { id: number }, subProject: { id: number };

  beforeEach(async () => {
    group = await createGroup(rootToken());
    sub = await createGroup(rootToken(), { parentId: group.id });
    project = await createProject(rootToken(), { namespaceId: group.id });
    subProject = await createProject(rootToken(), { namespaceId: sub.id });
  });

  it('answers the setting in GET and PUT, and cascades "disabled_and_unoverridable" to every subgroup and project', async () => {
    expect(await settingOf(group.id)).toBe('enabled');
    const res = await put(group.id, 'disabled_and_unoverridable');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: group.id, shared_runners_setting: 'disabled_and_unoverridable' });
    expect(await settingOf(sub.id)).toBe('disabled_and_unoverridable');
    expect([await projectShared(project.id), await projectShared(subProject.id)]).toEqual([false, false]);
  });

  it('"disabled_and_overridable" turns instance runners off below but lets projects and subgroups turn them back on', async () => {
    expect((await put(group.id, 'disabled_and_overridable')).body.shared_runners_setting).toBe('disabled_and_overridable');
    // Subgroups keep their own override choice (off by default): GitLab only switches their runners off.
    expect(await settingOf(sub.id)).toBe('disabled_and_unoverridable');
    expect([await projectShared(project.id), await projectShared(subProject.id)]).toEqual([false, false]);
    const on = await api('PUT', `/projects/${project.id}`, { token: rootToken(), json: { shared_runners_enabled: true } });
    expect([on.status, on.body.shared_runners_enabled]).toEqual([200, true]);
    // The subgroup may enable itself again under an overridable parent.
    expect((await put(sub.id, 'enabled')).body.shared_runners_setting).toBe('enabled');
  });

  it('from disabled_and_unoverridable to overridable only changes the override, and back to enabled turns everything on', async () => {
    await put(group.id, 'disabled_and_unoverridable');
    await put(group.id, 'disabled_and_overridable');
    expect(await settingOf(group.id)).toBe('disabled_and_overridable');
    expect(await settingOf(sub.id)).toBe('disabled_and_unoverridable');
    expect(await projectShared(project.id)).toBe(false);
    expect((await put(group.id, 'enabled')).body.shared_runners_setting).toBe('enabled');
    expect(await settingOf(sub.id)).toBe('enabled');
    expect([await projectShared(project.id), await projectShared(subProject.id)]).toEqual([true, true]);
  });

  it("refuses a subgroup's enabled or overridable setting under a disabled_and_unoverridable parent, with GitLab's message", async () => {
    await put(group.id, 'disabled_and_unoverridable');
    const enable = await put(sub.id, 'enabled');
    expect([enable.status, enable.body]).toEqual([
      400,
      { message: { update_shared_runners: ['Validation failed: Shared runners enabled cannot be enabled because parent group has shared Runners disabled'] } },
    ]);
    const override = await put(sub.id, 'disabled_and_overridable');
    expect(override.status).toBe(400);
    expect(override.body.message.update_shared_runners[0]).toMatch(
      /Allow descendants override disabled shared runners cannot be enabled because parent group does not allow it$/,
    );
    expect(await settingOf(sub.id)).toBe('disabled_and_unoverridable');
    // Nothing else in the same request was saved.
    const mixed = await api('PUT', `/groups/${sub.id}`, { token: rootToken(), json: { description: 'changed', shared_runners_setting: 'enabled' } });
    expect(mixed.status).toBe(400);
    expect((await api('GET', `/groups/${sub.id}`, { token: rootToken() })).body.description).toBe('');
    // A project there may not turn instance runners on either.
    const project400 = await api('PUT', `/projects/${subProject.id}`, { token: rootToken(), json: { shared_runners_enabled: true } });
    expect(project400.body).toEqual({ message: { shared_runners_enabled: ['cannot be enabled because parent group does not allow it'] } });
  });

  it('gives new subgroups the parent setting and new projects instance runners only when the group has them enabled', async () => {
    await put(group.id, 'disabled_and_overridable');
    const child = await createGroup(rootToken(), { parentId: group.id });
    expect(child.shared_runners_setting).toBe('disabled_and_overridable');
    const fresh = await createProject(rootToken(), { namespaceId: group.id });
    expect(fresh.shared_runners_enabled).toBe(false);
    // Overridable: asking for them explicitly is allowed; unoverridable: refused.
    const asked = await api('POST', '/projects', { token: rootToken(), json: { name: 'asks-on', namespace_id: group.id, shared_runners_enabled: true } });
    expect([asked.status, asked.body.shared_runners_enabled]).toEqual([201, true]);
    await put(group.id, 'disabled_and_unoverridable');
    const refused = await api('POST', '/projects', { token: rootToken(), json: { name: 'asks-on-2', namespace_id: group.id, shared_runners_enabled: true } });
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: { shared_runners_enabled: ['cannot be enabled because parent group does not allow it'] } },
    ]);
  });

  it("lists instance runners for the group's projects only while their switch is on", async () => {
    const instance = await createRunner('instance_type');
    const listed = async () =>
      (
        (await api('GET', `/projects/${project.id}/runners`, { token: rootToken(), query: { per_page: '100', type: 'instance_type' } })).body as {
          id: number;
        }[]
      ).map((r) => r.id);
    expect(await listed()).toContain(instance);
    await put(group.id, 'disabled_and_unoverridable');
    expect(await listed()).not.toContain(instance);
  });

  describe('who may change it', () => {
    let owner: TestUser, maintainer: TestUser, admin: TestUser;
    beforeEach(async () => {
      [owner, maintainer, admin] = await Promise.all([createUser(), createUser(), createUser({ admin: true })]);
      await addGroupMember(rootToken(), group.id, owner.id, 50);
      await addGroupMember(rootToken(), group.id, maintainer.id, 40);
    });

    it('lets Owners and admins change it; Maintainers get 403 and anonymous callers 401', async () => {
      expect((await put(group.id, 'disabled_and_overridable', owner.token)).status).toBe(200);
      expect((await put(group.id, 'enabled', admin.token)).status).toBe(200);
      const refused = await put(group.id, 'disabled_and_unoverridable', maintainer.token);
      expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
      expect((await api('PUT', `/groups/${group.id}`, { json: { shared_runners_setting: 'enabled' } })).status).toBe(401);
      expect(await settingOf(group.id)).toBe('enabled');
    });

    it('rejects an unknown value with the API params error', async () => {
      const bad = await put(group.id, 'disabled_for_everyone', owner.token);
      expect([bad.status, bad.body]).toEqual([400, { error: 'shared_runners_setting does not have a valid value' }]);
    });

    it('takes the deprecated disabled_with_override as disabled_and_overridable (GitLab still lists it), and answers the new name', async () => {
      const res = await put(group.id, 'disabled_with_override', owner.token);
      expect([res.status, res.body.shared_runners_setting]).toEqual([200, 'disabled_and_overridable']);
      expect(await settingOf(group.id)).toBe('disabled_and_overridable');
      expect(await projectShared(project.id)).toBe(false);
      // POST /groups takes it too.
      const created = await api('POST', '/groups', {
        token: rootToken(),
        json: { name: 'alias-sub', path: `alias-sub-${group.id}`, parent_id: group.id, shared_runners_setting: 'disabled_with_override' },
      });
      expect([created.status, created.body.shared_runners_setting]).toEqual([201, 'disabled_and_overridable']);
    });
  });
});
