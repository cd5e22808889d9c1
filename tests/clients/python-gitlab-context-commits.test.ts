// python-gitlab 3.12 (system /usr/bin/python3) against Runway: context commits through the generic
// http_post / http_list / http_request("delete") calls, as scripts do (python-gitlab has no manager for them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { runPython } from '../support/python';
import { createUser, type TestUser } from '../support/users';
import { addProjectMember } from '../support/namespaces';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

const SCRIPT = String.raw`
import json, sys, gitlab
url, token, project, iid, sha1, sha2 = sys.argv[1:7]
gl = gitlab.Gitlab(url, private_token=token)
path = "/projects/%s/merge_requests/%s/context_commits" % (gitlab.utils.EncodedId(project), iid)
out = {}
out["created"] = gl.http_post(path, post_data={"commits": [sha1, sha2]})
out["listed"] = gl.http_list(path, get_all=True)
try:
    gl.http_post(path, post_data={"commits": [sha1]})
except gitlab.exceptions.GitlabHttpError as e:
    out["duplicate"] = {"code": e.response_code, "message": e.error_message}
resp = gl.http_request("delete", path, post_data={"commits": [sha1]})
out["deleted_status"] = resp.status_code
out["deleted_body"] = resp.text
out["after"] = gl.http_list(path, get_all=True)
print(json.dumps(out))
`;

const python = (args: string[]) => runPython(SCRIPT, args);

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string };
let dev: TestUser;
let iid: number;

beforeAll(async () => {
  repo = buildSampleRepo();
  project = await importedProject(repo.dir);
  dev = await createUser();
  await addProjectMember(rootToken(), project.id, dev.id, 30);
  const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
    token: dev.token,
    json: { source_branch: 'feature', target_branch: 'topic', title: 'python MR' },
  });
  expect(mr.status, mr.text).toBe(201);
  iid = mr.body.iid;
});
afterAll(() => removeRepo(repo));

describe('[CONTEXT COMMITS] python-gitlab generic calls', () => {
  it('http_post, http_list, http_request("delete") by project path', async () => {
    const r = await python([baseUrl(), dev.token, project.path_with_namespace, String(iid), repo.commits.t1, repo.commits.t2]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.created.map((c: any) => c.id)).toEqual([repo.commits.t1, repo.commits.t2]);
    expect(out.created[0].trailers).toEqual({});
    // GitLab's API lists them in the order they were added (its pagination orders by id), not by date.
    expect(out.listed.map((c: any) => c.id)).toEqual([repo.commits.t1, repo.commits.t2]);
    expect(out.listed[0].created_at).toBe('2024-03-06T10:00:00.000Z');
    expect(out.duplicate).toEqual({ code: 400, message: `Context commits: ["${repo.commits.t1}"] are already created` });
    expect(out.deleted_status).toBe(204);
    expect(out.deleted_body).toBe('');
    expect(out.after.map((c: any) => c.id)).toEqual([repo.commits.t2]);
  });
});
