// The real python-gitlab 3.12 against the runner admin API: list/all with pagination, get, save, delete,
// project and group runners, runner jobs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, uniq } from '../support/api';
import { createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { addJobs, createRunner } from '../api/runners-admin-support';

describe('[RUNNERS] python-gitlab drives the runner admin API', () => {
  it('lists, pages, reads, updates, assigns and deletes runners as GitLab would serve them', async () => {
    const [admin, owner] = await Promise.all([createUser({ admin: true }), createUser()]);
    const tag = uniq('py');
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: group.id });
    const project2 = await createProject(owner.token, { namespaceId: group.id });
    const instance = await createRunner('instance_type', { token: admin.token, tags: [tag] });
    const groupRunner = await createRunner('group_type', { token: owner.token, groupId: group.id, tags: [tag] });
    const pr1 = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag] });
    const pr2 = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag] });
    const doomed = await createRunner('project_type', { token: owner.token, projectId: project.id, tags: [tag] });
    const jobs = [...(await addJobs(pr2, project.id, 3)), ...(await addJobs(pr2, project.id, 2, { status: 'failed' }))];

    const run = spawnSync('/usr/bin/python3', [path.join(__dirname, 'python_gitlab_runners.py')], {
      env: {
        PATH: process.env.PATH,
        RUNWAY_URL: baseUrl(),
        RUNWAY_ADMIN_TOKEN: admin.token,
        RUNWAY_OWNER_TOKEN: owner.token,
        RUNWAY_TAG: tag,
        RUNWAY_GROUP_ID: String(group.id),
        RUNWAY_PROJECT_ID: String(project.id),
        RUNWAY_PROJECT2_ID: String(project2.id),
        RUNWAY_PROJECT_RUNNER: String(pr1),
        RUNWAY_JOBS_RUNNER: String(pr2),
        RUNWAY_DELETE_RUNNER: String(doomed),
      } as unknown as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split('\n').pop()!);

    // Five runners at per_page=2: python-gitlab followed Link across three pages.
    expect(seen.all).toEqual([instance, groupRunner, pr1, pr2, doomed]);
    expect(seen.iterated).toEqual(seen.all);
    expect(seen.iterator_total).toBe(5);
    expect(seen.all_projects).toEqual([pr1, pr2, doomed]);
    expect(seen.owned).toEqual([groupRunner, pr1, pr2, doomed]);
    expect(seen.owned_status).toEqual(['never_contacted', 'never_contacted', 'never_contacted', 'never_contacted']);
    expect(seen.get).toEqual({ id: pr1, runner_type: 'project_type', tag_list: [tag], projects: [project.id] });
    expect(seen.updated).toEqual({ description: 'updated by python-gitlab', tag_list: [tag, 'py'], paused: true, active: false });
    expect(seen.project_runners).toEqual([pr1, pr2, doomed]);
    expect(seen.enabled).toEqual({ id: pr1, runner_type: 'project_type' });
    expect(seen.after_enable).toEqual([project.id, project2.id]);
    expect(seen.after_disable).toEqual([project.id]);
    expect(seen.group_runners).toEqual([groupRunner]);
    expect(seen.jobs).toEqual(jobs);
    expect(seen.jobs_failed).toEqual(['failed', 'failed']);
    expect(seen.missing).toBe(404);
    expect(seen.deleted).toBe(404);
  });
});
