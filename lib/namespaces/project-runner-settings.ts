// A project's runner switches (GitLab's `shared_runners_enabled` and `group_runners_enabled`), written by
// PUT /projects/:id. Kept apart from the rest of a project's settings so a general project update can call
// it for these two attributes.
import type { Actor } from '../auth/authenticate';
import { validationError, forbidden } from '../api/errors';
import { db } from '../db/client';
import { AccessLevel } from './access';
import type { ProjectRecord } from './records';
import { projectViewer } from './resolve';

export interface ProjectRunnerSettings {
  sharedRunnersEnabled?: boolean;
  groupRunnersEnabled?: boolean;
}

/** admin_project: Maintainer+ (and administrators) may change a project's runner settings. */
export async function canChangeProjectRunnerSettings(actor: Actor, project: { id: number }): Promise<boolean> {
  const viewer = await projectViewer(actor, project);
  return viewer.admin || viewer.level >= AccessLevel.MAINTAINER;
}

/**
 * Applies the switches. Turning instance runners on is refused when the project's own group has them
 * "disabled and unoverridable" (Runway's `shared_runners_enabled = false` on the group), as GitLab's
 * Project validation does; the group row is locked so a concurrent group change cannot slip between.
 */
export async function updateProjectRunnerSettings(actor: Actor, project: ProjectRecord, changes: ProjectRunnerSettings): Promise<void> {
  if (!(await canChangeProjectRunnerSettings(actor, project))) throw forbidden();
  const data: ProjectRunnerSettings = {};
  if (changes.sharedRunnersEnabled !== undefined) data.sharedRunnersEnabled = changes.sharedRunnersEnabled;
  if (changes.groupRunnersEnabled !== undefined) data.groupRunnersEnabled = changes.groupRunnersEnabled;
  if (!Object.keys(data).length) return;
  await db().$transaction(async (tx) => {
    if (data.sharedRunnersEnabled && project.namespace.kind === 'group') {
      const rows = await tx.$queryRaw<{ shared_runners_enabled: boolean }[]>`
        SELECT shared_runners_enabled FROM namespaces WHERE id = ${project.namespace.id} FOR SHARE`;
      if (rows[0] && !rows[0].shared_runners_enabled) {
        throw validationError({ shared_runners_enabled: ['cannot be enabled because parent group does not allow it'] });
      }
    }
    await tx.project.update({ where: { id: project.id }, data });
  });
}
