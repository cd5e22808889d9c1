// The path above a page inside a project: its groups, the project, then the section and item, drawn by
// the dashboard's one breadcrumb component.
import { Breadcrumbs, projectCrumbs } from '../ui/breadcrumbs';

export function ProjectCrumbs({ fullPath, trail }: { fullPath: string; trail: { label: string; href?: string }[] }) {
  return <Breadcrumbs items={projectCrumbs(fullPath, trail)} />;
}
