// python-gitlab 3.12 (system /usr/bin/python3) against Runway: a script sets an MR's assignees and reviewers
// the way infrastructure code does (mr.assignee_ids = [...]; mr.save()), reads them back and clears them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { runPython } from '../support/python';
import { createUser } from '../support/users';
import { removeRepo } from '../fixtures/git-repos';
import { mrProjectWithPeople, type MrPeople } from '../fixtures/merge-request-people';

const SCRIPT = String.raw`
import json, sys, gitlab
url, token, project, iid, a, b, r, stranger = sys.argv[1:9]
gl = gitlab.Gitlab(url, private_token=token)
p = gl.projects.get(project, lazy=True)
people = lambda m: {"assignees": [u["id"] for u in m.assignees], "assignee": m.assignee and m.assignee["id"], "reviewers": [u["id"] for u in m.reviewers]}
out = {}
mr = p.mergerequests.get(iid)
mr.assignee_ids = [int(a), int(b), int(stranger)]
mr.reviewer_ids = [int(r)]
mr.save()
out["saved"] = people(mr)
out["read"] = people(p.mergerequests.get(iid))
mr = p.mergerequests.update(iid, {"assignee_ids": [int(b)], "reviewer_ids": []})
out["updated"] = {"assignees": [u["id"] for u in mr["assignees"]], "reviewers": [u["id"] for u in mr["reviewers"]]}
mr = p.mergerequests.get(iid)
mr.assignee_ids = []
mr.save()
out["cleared"] = people(p.mergerequests.get(iid))
print(json.dumps(out))
`;

const python = (args: string[]) => runPython(SCRIPT, args);

let ctx: MrPeople;
let iid: number;

beforeAll(async () => {
  ctx = await mrProjectWithPeople();
  const { project, dev } = ctx;
  const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
    token: dev.token,
    json: { source_branch: 'feature', target_branch: 'topic', title: 'python people' },
  });
  expect(mr.status, mr.text).toBe(201);
  iid = mr.body.iid;
});
afterAll(() => removeRepo(ctx.repo));

describe('[MERGE REQUESTS] python-gitlab assignees and reviewers', () => {
  it('mr.assignee_ids / reviewer_ids + save(), manager update, clearing with []', async () => {
    const { project, dev, other, reviewer } = ctx;
    const stranger = await createUser();
    const r = await python([
      baseUrl(),
      dev.token,
      project.path_with_namespace,
      String(iid),
      String(dev.id),
      String(other.id),
      String(reviewer.id),
      String(stranger.id),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // The stranger cannot read the private project's MRs: dropped without an error.
    const set = { assignees: [dev.id, other.id], assignee: dev.id, reviewers: [reviewer.id] };
    expect(out.saved).toEqual(set);
    expect(out.read).toEqual(set);
    expect(out.updated).toEqual({ assignees: [other.id], reviewers: [] });
    expect(out.cleared).toEqual({ assignees: [], assignee: null, reviewers: [] });
  });
});
