// @gitbeaker/rest 43.8 MergeRequestContextCommits against Runway: all, create (with mergerequestIId), remove.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addProjectMember } from '../support/namespaces';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string };
let dev: TestUser;
let iid: number;
let gl: InstanceType<typeof Gitlab>;

beforeAll(async () => {
  repo = buildSampleRepo();
  project = await importedProject(repo.dir);
  dev = await createUser();
  await addProjectMember(rootToken(), project.id, dev.id, 30);
  const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
    token: dev.token,
    json: { source_branch: 'topic', target_branch: 'main', title: 'gitbeaker MR' },
  });
  expect(mr.status, mr.text).toBe(201);
  iid = mr.body.iid;
  gl = new Gitlab({ host: baseUrl(), token: dev.token });
});
afterAll(() => removeRepo(repo));

describe('[CONTEXT COMMITS] gitbeaker MergeRequestContextCommits', () => {
  it('create with mergerequestIId, all, remove', async () => {
    const created = (await gl.MergeRequestContextCommits.create(project.id, [repo.commits.f1, repo.commits.f2.slice(0, 8)], {
      mergerequestIId: iid,
    })) as unknown as any[];
    expect(created.map((c) => c.id)).toEqual([repo.commits.f1, repo.commits.f2]);
    expect(created[0].trailers['Co-authored-by']).toBe('鈴木 Bob <bob@example.com>');
    expect(created[0].web_url).toBe(`${baseUrl()}/${project.path_with_namespace}/-/commit/${repo.commits.f1}`);

    const all = (await gl.MergeRequestContextCommits.all(project.path_with_namespace, iid)) as unknown as any[];
    // GitLab's API lists them in the order they were added (its pagination orders by id), not by date.
    expect(all.map((c) => c.id)).toEqual([repo.commits.f1, repo.commits.f2]);
    expect(all[0].parent_ids).toBeNull();
    expect(all[0].author_name).toBe('Ålice Müller');

    await gl.MergeRequestContextCommits.remove(project.id, iid, { commits: [repo.commits.f1] } as never);
    const after = (await gl.MergeRequestContextCommits.all(project.id, iid)) as unknown as any[];
    expect(after.map((c) => c.id)).toEqual([repo.commits.f2]);
  });

  it('surfaces GitLab errors: duplicate and invalid SHA', async () => {
    await expect(gl.MergeRequestContextCommits.create(project.id, [repo.commits.f2], { mergerequestIId: iid })).rejects.toMatchObject({
      cause: { description: `Context commits: ["${repo.commits.f2}"] are already created` },
    });
    await expect(gl.MergeRequestContextCommits.create(project.id, ['invalid'], { mergerequestIId: iid })).rejects.toMatchObject({
      cause: { description: "One or more context commits' sha is not valid." },
    });
  });
});
