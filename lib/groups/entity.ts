// Entities::GroupDetail: a group with its projects (lib/projects/entity.ts), which is why it sits in lib/groups
// above the group entities every domain reads (lib/namespaces/entity.ts).
import type { NamespaceRecord, ProjectRecord, SharedGroupLink } from '../namespaces/records';
import { groupEntity, sharedWithGroupEntity } from '../namespaces/entity';
import { projectEntity } from '../projects/entity';

/**
 * Entities::GroupDetail: the group, the groups it is shared with, prevent_sharing_groups_outside_hierarchy
 * (top-level groups only, as GitLab), and its projects and the projects shared with it (those the viewer may
 * read); `null` projects is with_projects=false.
 */
export function groupDetailEntity(
  g: NamespaceRecord,
  projects: ProjectRecord[] | null,
  opts: { admin: boolean; sharedWith: SharedGroupLink[]; sharedProjects: ProjectRecord[] },
) {
  const detail = Object.assign(groupEntity(g), {
    shared_with_groups: opts.sharedWith.map(sharedWithGroupEntity),
    ...(g.parentId === null ? { prevent_sharing_groups_outside_hierarchy: g.preventSharingGroupsOutsideHierarchy } : {}),
  });
  if (!projects) return detail;
  return {
    ...detail,
    projects: projects.map((p) => projectEntity(p, { admin: opts.admin })),
    shared_projects: opts.sharedProjects.map((p) => projectEntity(p, { admin: opts.admin })),
  };
}
