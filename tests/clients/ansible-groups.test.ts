// [NAMESPACES] Ansible's community.general GitLab modules for groups, users, group members and project members
// against Runway (issue 24): apply, apply again (no change), change, change again (no change), remove, and
// remove again (no change). Runs each task through tests/support/ansible.ts (shared with the projects/runners playbook tests).
import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { createProject } from '../support/namespaces';
import { playTask } from '../support/ansible';

/** Runs the tasks in order (one play each, through the shared runner) and collects what each reported. */
async function runPlaybook(tasks: Record<string, unknown>[]) {
  const results: { name: string; changed: boolean; failed: boolean; msg?: string }[] = [];
  for (const task of tasks) {
    const { name, ...rest } = task;
    const [module, args] = Object.entries(rest)[0] as [string, Record<string, unknown>];
    const r = await playTask(module, args);
    results.push({ name: String(name), changed: r.changed > 0, failed: r.failed > 0, msg: r.result?.msg });
  }
  return { tasks: results, changed: results.filter((t) => t.changed).length, failed: results.filter((t) => t.failed).length };
}

describe('[NAMESPACES] Ansible: gitlab_group, gitlab_user, gitlab_group_members, gitlab_project_members', () => {
  it('converges: a second run of each state changes nothing', { timeout: 600_000 }, async () => {
    const auth = { api_url: baseUrl(), api_token: rootToken() };
    const tag = uniq('ans').replace(/-/g, '');
    const project = await createProject(rootToken());
    const groupPath = `${tag}-group`;
    const username = `${tag}_user`;

    const state = (o: { description: string; creation: string; subgroups: string; name: string; external: boolean; level: string; present: boolean }) => [
      {
        name: 'group',
        'community.general.gitlab_group': {
          ...auth,
          name: `${tag} Group`,
          path: groupPath,
          description: o.description,
          visibility: 'private',
          project_creation_level: o.creation,
          subgroup_creation_level: o.subgroups,
          auto_devops_enabled: false,
          require_two_factor_authentication: false,
          state: o.present ? 'present' : 'absent',
        },
      },
      {
        name: 'user',
        'community.general.gitlab_user': {
          ...auth,
          name: o.name,
          username,
          email: `${username}@example.com`,
          password: 'ansible-password-1',
          confirm: false,
          isadmin: false,
          external: o.external,
          state: o.present ? 'present' : 'absent',
        },
      },
      {
        name: 'group member',
        'community.general.gitlab_group_members': {
          ...auth,
          gitlab_group: groupPath,
          gitlab_user: username,
          access_level: o.level,
          state: o.present ? 'present' : 'absent',
        },
      },
      {
        name: 'project member',
        'community.general.gitlab_project_members': {
          ...auth,
          project: project.path_with_namespace,
          gitlab_user: username,
          access_level: o.level,
          state: o.present ? 'present' : 'absent',
        },
      },
    ];
    // Removal goes members first, then the user and the group.
    const removal = (o: Parameters<typeof state>[0]) => {
      const [group, user, groupMember, projectMember] = state(o);
      return [projectMember, groupMember, user, group];
    };

    const first = {
      description: 'managed by ansible',
      creation: 'developer',
      subgroups: 'maintainer',
      name: 'Ansible User',
      external: false,
      level: 'developer',
      present: true,
    };
    const applied = await runPlaybook(state(first));
    expect(applied.failed, JSON.stringify(applied.tasks)).toBe(0);
    expect(applied.tasks.map((t) => t.changed)).toEqual([true, true, true, true]);
    const group = (await api('GET', `/groups/${groupPath}`, { token: rootToken() })).body;
    expect(group).toMatchObject({
      description: 'managed by ansible',
      project_creation_level: 'developer',
      subgroup_creation_level: 'maintainer',
      auto_devops_enabled: false,
    });

    const again = await runPlaybook(state(first));
    expect(again.failed, JSON.stringify(again.tasks)).toBe(0);
    expect(again.changed, JSON.stringify(again.tasks)).toBe(0);

    const second = {
      ...first,
      description: 'changed by ansible',
      creation: 'maintainer',
      subgroups: 'owner',
      name: 'Ansible Renamed',
      external: true,
      level: 'maintainer',
    };
    const changed = await runPlaybook(state(second));
    expect(changed.failed, JSON.stringify(changed.tasks)).toBe(0);
    expect(changed.tasks.map((t) => t.changed)).toEqual([true, true, true, true]);
    expect((await api('GET', `/groups/${groupPath}`, { token: rootToken() })).body).toMatchObject({
      description: 'changed by ansible',
      project_creation_level: 'maintainer',
      subgroup_creation_level: 'owner',
    });
    const users = (await api('GET', '/users', { token: rootToken(), query: { username } })).body;
    expect(users[0]).toMatchObject({ name: 'Ansible Renamed', external: true });
    const changedAgain = await runPlaybook(state(second));
    expect(changedAgain.changed, JSON.stringify(changedAgain.tasks)).toBe(0);

    const removed = await runPlaybook(removal({ ...second, present: false }));
    expect(removed.failed, JSON.stringify(removed.tasks)).toBe(0);
    expect(removed.tasks.map((t) => t.changed)).toEqual([true, true, true, true]);
    expect((await api('GET', `/groups/${groupPath}`, { token: rootToken() })).status).toBe(404);
    // The group's members cannot be asked about once the group is gone (the module fails, as on GitLab).
    const removedAgain = await runPlaybook(removal({ ...second, present: false }).filter((t) => t.name !== 'group member'));
    expect(removedAgain.failed, JSON.stringify(removedAgain.tasks)).toBe(0);
    expect(removedAgain.changed, JSON.stringify(removedAgain.tasks)).toBe(0);
  });
});
