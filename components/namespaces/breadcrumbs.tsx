// The path above a project or group page, drawn by the dashboard's one breadcrumb component.
import { Breadcrumbs, namespaceCrumbs, type Crumb } from '../ui/breadcrumbs';
import { projectHref } from '@/lib/client/paths';

/** `project`: a page inside a project, whose name links to the project's page before `current`. */
export function NamespaceBreadcrumbs({
  namespacePath,
  personal,
  current,
  project,
}: {
  namespacePath: string | null;
  personal?: boolean;
  current: string;
  project?: { name: string; fullPath: string };
}) {
  const items: Crumb[] = [...namespaceCrumbs(namespacePath, personal)];
  if (project) items.push({ label: project.name, href: projectHref(project.fullPath) });
  items.push({ label: current });
  return <Breadcrumbs items={items} />;
}
