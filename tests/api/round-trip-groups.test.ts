// [NAMESPACES] Issue 24's rule for groups: every key of Entities::GroupDetail is either written by POST/PUT
// /groups and read back exactly, or in the read-only list below with the reason; the settings are validated
// with GitLab's messages and steer who may create projects and subgroups.
import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup } from '../support/namespaces';
import { createUser } from '../support/users';
import { flip, to, walkSettable } from '../support/round-trip';

const READ_ONLY = {
  id: 'assigned on create',
  web_url: 'derived from the full path',
  full_name: 'derived from the names of the group and its ancestors',
  full_path: 'derived from the paths of the group and its ancestors',
  created_at: 'set on create',
  parent_id: 'set on create; GitLab moves groups with POST /groups/:id/transfer, which Runway does not have',
  organization_id: "POST /groups takes it, but Runway has GitLab's one default organization (1)",
  archived: 'GitLab archives with POST /groups/:id/archive, not with create/update parameters',
  avatar_url: 'avatars are file uploads, which Runway does not store',
  marked_for_deletion_on: 'Runway deletes groups at once (no delayed deletion)',
  shared_with_groups: 'written by POST and DELETE /groups/:id/share (tested in group-sharing.test.ts)',
  projects: 'the projects in the group',
  shared_projects: 'written by POST and DELETE /projects/:id/share',
};

describe('[NAMESPACES] groups round-trip', () => {
  it('every GroupDetail key of a top-level group is settable through PUT /groups/:id and reads back, or read-only with a reason', async () => {
    const group = await createGroup(rootToken());
    const read = async () => (await api('GET', `/groups/${group.id}`, { token: rootToken() })).body;
    const walked = await walkSettable({
      entity: 'group',
      read,
      update: (params) => api('PUT', `/groups/${group.id}`, { token: rootToken(), json: params }),
      settable: {
        name: { next: to('Renamed Group'), couples: ['full_name'] },
        path: { next: to(uniq('moved')), couples: ['web_url', 'full_path'] },
        description: { next: to('described') },
        visibility: { next: to('internal') },
        share_with_group_lock: { next: flip },
        require_two_factor_authentication: { next: flip },
        two_factor_grace_period: { next: to(12) },
        project_creation_level: { next: to('maintainer') },
        auto_devops_enabled: { next: flip },
        subgroup_creation_level: { next: to('owner') },
        emails_disabled: { next: flip, couples: ['emails_enabled'] },
        emails_enabled: { next: flip, couples: ['emails_disabled'] },
        show_diff_preview_in_email: { next: flip },
        mentions_disabled: { next: flip },
        lfs_enabled: { next: flip },
        math_rendering_limits_enabled: { next: flip },
        lock_math_rendering_limits_enabled: { next: flip },
        default_branch: { next: to('trunk') },
        default_branch_protection: { next: to(3), couples: ['default_branch_protection_defaults'] },
        default_branch_protection_defaults: {
          next: to({ allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 40 }] }),
          couples: ['default_branch_protection'],
        },
        request_access_enabled: { next: flip },
        shared_runners_setting: { next: to('disabled_and_overridable') },
        max_artifacts_size: { next: to(250) },
        prevent_sharing_groups_outside_hierarchy: { next: flip },
      },
      readOnly: READ_ONLY,
    });
    expect(walked).toHaveLength(24);
  });

  it('POST /groups stores every setting as sent', async () => {
    const path = uniq('made');
    const settings = {
      description: 'made with settings',
      visibility: 'public',
      share_with_group_lock: true,
      require_two_factor_authentication: true,
      two_factor_grace_period: 0,
      project_creation_level: 'noone',
      auto_devops_enabled: true,
      subgroup_creation_level: 'owner',
      emails_enabled: false,
      show_diff_preview_in_email: false,
      mentions_disabled: false,
      lfs_enabled: false,
      request_access_enabled: false,
      default_branch: 'main',
      default_branch_protection: 0,
      shared_runners_setting: 'disabled_and_unoverridable',
    };
    const res = await api('POST', '/groups', { token: rootToken(), json: { name: path, path, ...settings } });
    expect(res.status, res.text).toBe(201);
    const { shared_runners_setting, default_branch_protection, ...stored } = settings;
    const expected = {
      ...stored,
      emails_disabled: true,
      shared_runners_setting,
      default_branch_protection,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 30 }] },
    };
    expect(res.body).toMatchObject(expected);
    expect((await api('GET', `/groups/${res.body.id}`, { token: rootToken() })).body).toMatchObject(expected);
  });

  it('a subgroup shows no prevent_sharing_groups_outside_hierarchy and ignores it, as GitLab', async () => {
    const top = await createGroup(rootToken());
    const sub = await createGroup(rootToken(), { parentId: top.id });
    const res = await api('PUT', `/groups/${sub.id}`, { token: rootToken(), json: { prevent_sharing_groups_outside_hierarchy: true } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('prevent_sharing_groups_outside_hierarchy');
    expect((await api('GET', `/groups/${top.id}`, { token: rootToken() })).body.prevent_sharing_groups_outside_hierarchy).toBe(false);
  });

  it("unknown parameters are ignored: an update with only unknown ones answers the group unchanged (GitLab's PUT declares no at_least_one_of)", async () => {
    const group = await createGroup(rootToken(), { description: 'kept' });
    const before = (await api('GET', `/groups/${group.id}`, { token: rootToken() })).body;
    const res = await api('PUT', `/groups/${group.id}`, { token: rootToken(), json: { no_such_setting: true, full_name: 'ignored' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(before);
  });

  it("bad values answer GitLab's 400s", async () => {
    const group = await createGroup(rootToken());
    const put = (json: Record<string, unknown>) => api('PUT', `/groups/${group.id}`, { token: rootToken(), json });
    expect((await put({ project_creation_level: 'everyone' })).body).toEqual({ error: 'project_creation_level does not have a valid value' });
    expect((await put({ subgroup_creation_level: 'developer' })).body).toEqual({ error: 'subgroup_creation_level does not have a valid value' });
    expect((await put({ default_branch_protection: 7 })).body).toEqual({ error: 'default_branch_protection does not have a valid value' });
    expect((await put({ lfs_enabled: 'maybe' })).body).toEqual({ error: 'lfs_enabled is invalid' });
    expect((await put({ default_branch_protection_defaults: { allowed_to_push: [{ access_level: 20 }] } })).body).toEqual({
      error: 'default_branch_protection_defaults[allowed_to_push][0][access_level] does not have a valid value',
    });
    const negative = await put({ two_factor_grace_period: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual({ message: { two_factor_grace_period: ['must be greater than or equal to 0'] } });
    // Nothing of a refused update is stored.
    expect((await api('GET', `/groups/${group.id}`, { token: rootToken() })).body.two_factor_grace_period).toBe(48);
  });

  it('project_creation_level and subgroup_creation_level decide who creates in the group', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const developer = await createUser();
    const maintainer = await createUser();
    await addGroupMember(owner.token, group.id, developer.id, 30);
    await addGroupMember(owner.token, group.id, maintainer.id, 40);
    const newProject = (token: string) => api('POST', '/projects', { token, json: { name: uniq('p'), namespace_id: group.id } });
    const newSubgroup = (token: string) => api('POST', '/groups', { token, json: { name: uniq('s'), path: uniq('s'), parent_id: group.id } });
    expect((await newProject(developer.token)).status).toBe(201);
    expect((await newSubgroup(maintainer.token)).status).toBe(201);

    await api('PUT', `/groups/${group.id}`, { token: owner.token, json: { project_creation_level: 'maintainer', subgroup_creation_level: 'owner' } });
    expect(await newProject(developer.token)).toMatchObject({ status: 400, body: { message: { namespace: ['is not valid'] } } });
    expect((await newProject(maintainer.token)).status).toBe(201);
    expect(await newSubgroup(maintainer.token)).toMatchObject({ status: 403 });
    expect((await newSubgroup(owner.token)).status).toBe(201);

    await api('PUT', `/groups/${group.id}`, { token: owner.token, json: { project_creation_level: 'noone' } });
    expect((await newProject(owner.token)).status).toBe(400);
    expect((await newProject(rootToken())).status).toBe(201);
  });

  it('share_with_group_lock turned on locks every subgroup too', async () => {
    const top = await createGroup(rootToken());
    const sub = await createGroup(rootToken(), { parentId: top.id });
    await api('PUT', `/groups/${top.id}`, { token: rootToken(), json: { share_with_group_lock: true } });
    expect((await api('GET', `/groups/${sub.id}`, { token: rootToken() })).body.share_with_group_lock).toBe(true);
    const later = await createGroup(rootToken(), { parentId: top.id });
    expect(later.share_with_group_lock).toBe(true);
  });
});
