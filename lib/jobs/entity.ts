// JobBasicWithProject (GitLab 18.x, §4.6), keys in GitLab's order; `project` is ProjectIdentity in the
// position JobBasic gives it. Relations are batch-loaded by queries.ts.
import { externalUrl } from '../config/env';
import type { Job, Pipeline, User } from '../db/generated/client';
import { commitEntity } from '../repositories/entity';
import { userDetails } from '../users/entity';
import { projectIdentity } from '../namespaces/entity';
import type { ProjectRecord } from '../namespaces/records';
import type { JobRelations } from './queries';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function duration(j: Job, now: Date): number | null {
  if (!j.startedAt) return null;
  return ((j.finishedAt ?? now).getTime() - j.startedAt.getTime()) / 1000;
}

function pipelineBasic(p: Pipeline, project: { fullPath: string } | undefined) {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.projectId,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    source: p.source,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    web_url: project ? `${externalUrl()}/${project.fullPath}/-/pipelines/${p.id}` : null,
  };
}

export function jobBasicWithProject(j: Job, rel: JobRelations, now = new Date()) {
  const project = rel.projects.get(j.projectId);
  const pipeline = rel.pipelines.get(j.pipelineId);
  const user = j.userId !== null ? rel.users.get(j.userId) : undefined;
  const commit = pipeline ? rel.commits.get(`${pipeline.projectId}:${pipeline.sha}`) : undefined;
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: j.tag,
    coverage: j.coverage,
    allow_failure: j.allowFailure,
    created_at: iso(j.createdAt),
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    erased_at: iso(j.erasedAt),
    duration: duration(j, now),
    queued_duration: j.queuedDuration,
    // The relations carry exactly the fields these entities read (jobs/queries.ts).
    user: user ? userDetails(user as User) : null,
    commit: commit && project ? commitEntity(commit, project) : null,
    pipeline: pipeline ? pipelineBasic(pipeline, project) : null,
    ...(j.status === 'failed' ? { failure_reason: j.failureReason ?? 'unknown_failure' } : {}),
    web_url: project ? `${externalUrl()}/${project.fullPath}/-/jobs/${j.id}` : null,
    project: project ? projectIdentity(project as unknown as ProjectRecord) : null,
  };
}
