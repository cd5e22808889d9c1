// @gitbeaker/rest drives the create-update-delete cycle of a group and a project on Runway, with the
// lists scripts read around them (a project's groups, a group's descendants).
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl, uniq } from '../support/api';
import { createUser } from '../support/users';

describe('[NAMESPACES] gitbeaker: group and project create-update-delete', () => {
  it('Groups.create/edit/allDescendantGroups/remove and Projects.create/edit/allGroups/remove', async () => {
    const user = await createUser();
    const gl = new Gitlab({ host: baseUrl(), token: user.token });
    const tag = uniq('gblc');

    const group = await gl.Groups.create(`${tag} Group`, `${tag}-group`, { visibility: 'internal' });
    const sub = await gl.Groups.create('Sub', 'sub', { parentId: group.id as number, visibility: 'internal' });
    const edited = await gl.Groups.edit(group.id as number, { name: `${tag} Renamed`, path: `${tag}-renamed`, description: 'by gitbeaker' });
    expect(edited).toMatchObject({ name: `${tag} Renamed`, full_path: `${tag}-renamed`, description: 'by gitbeaker' });
    const descendants = await gl.Groups.allDescendantGroups(group.id as number, {});
    expect(descendants.map((g) => g.full_path)).toEqual([`${tag}-renamed/sub`]);

    const project = await gl.Projects.create({ name: `${tag} Project`, path: `${tag}-project`, namespaceId: sub.id as number });
    const changed = await gl.Projects.edit(project.id, { description: 'by gitbeaker', sharedRunnersEnabled: false, visibility: 'internal' });
    expect(changed).toMatchObject({
      description: 'by gitbeaker',
      shared_runners_enabled: false,
      visibility: 'internal',
      path_with_namespace: `${tag}-renamed/sub/${tag}-project`,
    });
    const groups = await gl.Projects.allGroups(project.id);
    expect(groups.map((g) => g.full_path)).toEqual([`${tag}-renamed/sub`, `${tag}-renamed`]);
    await expect(gl.Projects.edit(project.id, { visibility: 'public' })).rejects.toMatchObject({ cause: { response: { status: 400 } } });

    await gl.Projects.remove(project.id);
    await expect(gl.Projects.show(project.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    await gl.Groups.remove(group.id as number);
    await expect(gl.Groups.show(sub.id as number)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
