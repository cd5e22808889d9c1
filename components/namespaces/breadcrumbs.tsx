'use client';
// The trail above a page inside a project or group, by name ("Acme / Web / Website / Settings / CI/CD"), for
// pages that know only the path: the project or group comes from the query cache its page's loader filled
// (one request otherwise). Until it is there the path's segments stand in, the parents as plain text.
import { Breadcrumbs, groupCrumbs, groupNamedPath, projectCrumbs, projectNamedPath, type Crumb } from '../ui/breadcrumbs';
import { useGroup, useProject } from './use-namespaces';

export function ProjectBreadcrumbs({ fullPath, trail }: { fullPath: string; trail: Crumb[] }) {
  const project = useProject(fullPath).data;
  return <Breadcrumbs items={projectCrumbs(project ? projectNamedPath(project) : { fullPath, personal: true }, trail)} />;
}

export function GroupBreadcrumbs({ fullPath, trail }: { fullPath: string; trail: Crumb[] }) {
  const group = useGroup(fullPath).data;
  return <Breadcrumbs items={groupCrumbs(group ? groupNamedPath(group) : { fullPath }, trail)} />;
}
