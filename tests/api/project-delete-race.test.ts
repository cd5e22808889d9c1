// [NAMESPACES] Race: DELETE /projects/:p while the runner it owns is enabled in another project
// (POST /projects/:q/runners). Both services lock the project row before the runner row, so whichever
// commits second sees the first: the runner ends deleted, or linked to q and owned by q. Never a runner
// with zero projects, an owner that is gone, a deadlock or a 5xx.
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { createRunner, dbQuery } from './runners-admin-support';

// The embedded database serves one transaction at a time, so its trials only ever see the two serial
// orders: fewer show both, and there a trial takes about a second.
const TRIALS = process.env.DATABASE_URL ? 200 : 40;
const PARALLEL = 8;

describe('[NAMESPACES] project deletion racing a runner assignment', () => {
  it(`${TRIALS} trials leave every runner with a project and a live owner`, async () => {
    const user = await createUser();
    const outcomes = { deleted: 0, moved: 0 };
    const runnerIds: number[] = [];
    async function trial() {
      const [p, q] = [await createProject(user.token), await createProject(user.token)];
      const runner = await createRunner('project_type', { projectId: p.id, token: user.token });
      runnerIds.push(runner);
      const [del, assign] = await Promise.all([
        api('DELETE', `/projects/${p.id}`, { token: user.token }),
        api('POST', `/projects/${q.id}/runners`, { token: user.token, json: { runner_id: runner } }),
      ]);
      expect(del.status, del.text).toBe(202);
      // 201 assigned; 404 the runner was already deleted; 403 the policy looked after the owner was gone.
      expect([201, 403, 404], assign.text).toContain(assign.status);
      const rows = await dbQuery<{ owner_project_id: number | null; links: number[] }>(
        `SELECT r.owner_project_id, ARRAY(SELECT rp.project_id FROM ci_runner_projects rp WHERE rp.runner_id = r.id ORDER BY rp.id) AS links
           FROM ci_runners r WHERE r.id = $1`,
        [runner],
      );
      if (!rows.length) {
        expect(assign.status).not.toBe(201);
        outcomes.deleted++;
      } else {
        expect(assign.status).toBe(201);
        expect(rows[0]).toEqual({ owner_project_id: q.id, links: [q.id] });
        outcomes.moved++;
      }
    }
    for (let done = 0; done < TRIALS; done += PARALLEL) await Promise.all(Array.from({ length: Math.min(PARALLEL, TRIALS - done) }, trial));

    expect(outcomes.deleted + outcomes.moved).toBe(TRIALS);
    // The invariant over every runner the trials made, read once more at the end.
    const broken = await dbQuery(
      `SELECT r.id FROM ci_runners r WHERE r.id = ANY($1)
          AND (NOT EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id)
               OR r.owner_project_id IS NULL
               OR NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = r.owner_project_id))`,
      [runnerIds],
    );
    expect(broken).toEqual([]);
  }, 600_000);
});
