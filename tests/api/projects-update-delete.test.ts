// [NAMESPACES] PUT and DELETE /projects/:id and GET /projects/:id/groups: GitLab's permission rules
// (admin_project, rename_project, change_visibility_level, remove_project), validation bodies, and what a
// deletion takes with it (members, merge requests with context commits, runners owned alone; a runner
// shared with another project is re-owned by it).
import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { createRunner, dbQuery, linkProject } from './runners-admin-support';

async function projectWithRoles() {
  const owner = await createUser();
  const group = await createGroup(owner.token, { visibility: 'internal' });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
  const roles: Record<number, { token: string; id: number }> = {};
  for (const level of [20, 30, 40, 50]) {
    const u = await createUser();
    await addProjectMember(owner.token, project.id, u.id, level);
    roles[level] = u;
  }
  return { owner, group, project, roles };
}

describe('[NAMESPACES] PUT /projects/:id', () => {
  it('Maintainers update description, default branch settings and runner switches; the answer is Entities::Project', async () => {
    const t = await projectWithRoles();
    const res = await api('PUT', `/projects/${t.project.id}`, {
      token: t.roles[40].token,
      json: { description: 'Build farm', shared_runners_enabled: false, group_runners_enabled: false },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: t.project.id, description: 'Build farm', shared_runners_enabled: false, group_runners_enabled: false });
    expect(res.body).not.toHaveProperty('permissions');
    const shown = await api('GET', `/projects/${t.project.id}`, { token: t.roles[40].token });
    expect(shown.body).toMatchObject({ description: 'Build farm', shared_runners_enabled: false, group_runners_enabled: false });
  });

  it('Developers and Reporters get 403; non-members of a private project 404; anonymous 401', async () => {
    const t = await projectWithRoles();
    for (const level of [20, 30]) {
      const res = await api('PUT', `/projects/${t.project.id}`, { token: t.roles[level].token, json: { description: 'x' } });
      expect(res.status, `level ${level}`).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const stranger = await createUser();
    expect(await api('PUT', `/projects/${t.project.id}`, { token: stranger.token, json: { description: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { json: { description: 'x' } })).status).toBe(401);
  });

  it('a name or a visibility needs Owner (rename_project, change_visibility_level); a path only Maintainer', async () => {
    const t = await projectWithRoles();
    const m = t.roles[40].token;
    expect((await api('PUT', `/projects/${t.project.id}`, { token: m, json: { name: t.project.name } })).status).toBe(403);
    expect((await api('PUT', `/projects/${t.project.id}`, { token: m, json: { visibility: 'private' } })).status).toBe(403);
    const newPath = uniq('moved');
    const moved = await api('PUT', `/projects/${t.project.id}`, { token: m, json: { path: newPath } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ path: newPath, path_with_namespace: `${t.group.full_path}/${newPath}` });
    expect((await api('GET', `/projects/${encodeURIComponent(`${t.group.full_path}/${newPath}`)}`, { token: m })).body.id).toBe(t.project.id);

    const o = t.roles[50].token;
    const renamed = await api('PUT', `/projects/${t.project.id}`, { token: o, json: { name: 'Renamed Tool', visibility: 'internal' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed Tool', name_with_namespace: `${t.group.name} / Renamed Tool`, visibility: 'internal' });
    const admin = await createUser({ admin: true });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: admin.token, json: { visibility: 'private' } })).body.visibility).toBe('private');
  });

  it('answers GitLab validation bodies', async () => {
    const t = await projectWithRoles();
    const o = t.roles[50].token;
    const other = await createProject(t.owner.token, { namespaceId: t.group.id, name: 'Taken Name' });
    const none = await api('PUT', `/projects/${t.project.id}`, { token: o, json: {} });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/^allow_merge_on_skipped_pipeline, analytics_access_level, .* are missing, at least one parameter must be provided$/);
    expect(await api('PUT', `/projects/${t.project.id}`, { token: o, json: { name: '-bad', path: 'bad..path' } })).toMatchObject({
      status: 400,
      body: {
        message: {
          name: ["can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."],
          path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"],
        },
      },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: o, json: { name: 'taken name' } })).body).toEqual({
      message: { name: ['has already been taken'] },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: o, json: { path: other.path } })).body).toEqual({
      message: { path: ['has already been taken'] },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: o, json: { visibility: 'public' } })).body).toEqual({
      message: { visibility_level: ['public is not allowed in a internal group.'] },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: o, json: { default_branch: 'nope' } })).body).toEqual({
      message: { base: ["Could not change HEAD: branch 'nope' does not exist"] },
    });
    expect((await api('PUT', `/projects/${t.project.id}`, { token: o, json: { visibility: 'secret' } })).body).toEqual({
      error: 'visibility does not have a valid value',
    });
    // Nothing was half-applied.
    const shown = await api('GET', `/projects/${t.project.id}`, { token: o });
    expect(shown.body).toMatchObject({ name: t.project.name, path: t.project.path, visibility: 'private' });
  });
});

describe('[NAMESPACES] DELETE /projects/:id', () => {
  it('Owners and admins only: 202 {"message":"202 Accepted"}, then 404', async () => {
    const t = await projectWithRoles();
    expect(await api('DELETE', `/projects/${t.project.id}`, { token: t.roles[40].token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const res = await api('DELETE', `/projects/${t.project.id}`, { token: t.roles[50].token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    expect(await api('GET', `/projects/${t.project.id}`, { token: rootToken() })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api('DELETE', `/projects/${t.project.id}`, { token: rootToken() })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });

    const personal = await createUser();
    const mine = await createProject(personal.token);
    const admin = await createUser({ admin: true });
    expect((await api('DELETE', `/projects/${mine.id}`, { token: admin.token })).status).toBe(202);
  });

  it('takes members, merge requests and their context commits; deletes runners it owned alone, re-owns shared ones', async () => {
    const owner = await createUser();
    const doomed = await createProject(owner.token);
    const keeper = await createProject(owner.token);
    const member = await createUser();
    await addProjectMember(owner.token, doomed.id, member.id, 30);
    const [mr] = await dbQuery<{ id: number }>(
      `INSERT INTO merge_requests (iid, target_project_id, source_project_id, title, source_branch, target_branch, author_id, updated_at)
       VALUES (1, $1, $1, 'Doomed MR', 'topic', 'main', $2, now()) RETURNING id`,
      [doomed.id, owner.id],
    );
    await dbQuery(
      `INSERT INTO merge_request_context_commits (merge_request_id, sha, relative_order, author_name, author_email, authored_date,
         committer_name, committer_email, committed_date, message) VALUES ($1, $2, 0, 'a', 'a@x', now(), 'a', 'a@x', now(), 'm')`,
      [mr.id, 'a'.repeat(40)],
    );
    const alone = await createRunner('project_type', { projectId: doomed.id, token: owner.token });
    const shared = await createRunner('project_type', { projectId: doomed.id, token: owner.token });
    await linkProject(shared, keeper.id);
    const elsewhere = await createRunner('project_type', { projectId: keeper.id, token: owner.token });
    await linkProject(elsewhere, doomed.id);

    expect((await api('DELETE', `/projects/${doomed.id}`, { token: owner.token })).status).toBe(202);
    expect(await dbQuery('SELECT 1 FROM project_members WHERE project_id = $1', [doomed.id])).toEqual([]);
    expect(await dbQuery('SELECT 1 FROM merge_requests WHERE id = $1', [mr.id])).toEqual([]);
    expect(await dbQuery('SELECT 1 FROM merge_request_context_commits WHERE merge_request_id = $1', [mr.id])).toEqual([]);
    expect(await dbQuery('SELECT 1 FROM ci_runners WHERE id = $1', [alone])).toEqual([]);
    const runners = await dbQuery<{ id: number; owner_project_id: number }>('SELECT id, owner_project_id FROM ci_runners WHERE id = ANY($1) ORDER BY id', [
      [shared, elsewhere],
    ]);
    expect(runners).toEqual([
      { id: shared, owner_project_id: keeper.id },
      { id: elsewhere, owner_project_id: keeper.id },
    ]);
    const projects = await api('GET', `/runners/${shared}/projects`, { token: owner.token });
    expect(projects.status, projects.text).toBe(200);
    expect(projects.body.map((p: { id: number }) => p.id)).toEqual([keeper.id]);
  });
});

describe('[NAMESPACES] GET /projects/:id/groups', () => {
  it("lists the project's group and its ancestors, newest first, as PublicGroupDetails; search and skip_groups", async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'public', name: 'Top Org' });
    const mid = await createGroup(owner.token, { parentId: top.id, visibility: 'public', name: 'Mid Team' });
    const leaf = await createGroup(owner.token, { parentId: mid.id, visibility: 'public', name: 'Leaf Squad' });
    const project = await createProject(owner.token, { namespaceId: leaf.id, visibility: 'public' });
    const res = await api('GET', `/projects/${project.id}/groups`);
    expect(res.status).toBe(200);
    expect(res.body.map((g: { id: number }) => g.id)).toEqual([leaf.id, mid.id, top.id]);
    expect(Object.keys(res.body[0])).toEqual(['id', 'web_url', 'name', 'avatar_url', 'full_name', 'full_path']);
    expect(res.body[0]).toMatchObject({ name: 'Leaf Squad', full_name: 'Top Org / Mid Team / Leaf Squad', full_path: leaf.full_path });
    expect(res.headers.get('x-total')).toBe('3');
    const searched = await api('GET', `/projects/${project.id}/groups`, { query: { search: 'mid', with_shared: true, shared_min_access_level: 30 } });
    expect(searched.body.map((g: { id: number }) => g.id)).toEqual([mid.id]);
    const skipped = await api('GET', `/projects/${project.id}/groups`, { query: { skip_groups: [String(leaf.id), String(top.id)] } });
    expect(skipped.body.map((g: { id: number }) => g.id)).toEqual([mid.id]);
    expect((await api('GET', `/projects/${project.id}/groups`, { query: { skip_groups: ['x'] } })).body).toEqual({ error: 'skip_groups is invalid' });
  });

  it('a personal project has no groups; a private project is 404 to strangers', async () => {
    const user = await createUser();
    const mine = await createProject(user.token);
    const res = await api('GET', `/projects/${mine.id}/groups`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const stranger = await createUser();
    expect((await api('GET', `/projects/${mine.id}/groups`, { token: stranger.token })).status).toBe(404);
  });
});
