// A project's or group's title: breadcrumbs to its parents, the name, visibility, id and description.
import { PageHeader } from '../ui/page-header';
import { Breadcrumbs, type Crumb } from '../ui/breadcrumbs';
import type { Visibility } from '@/lib/client/types';
import { VisibilityBadge } from './visibility-badge';

export function NamespaceHeader(props: {
  kind: 'Project' | 'Group';
  id: number;
  name: string;
  description: string | null;
  visibility: Visibility | undefined;
  /** The trail to it, by name, itself last (groupCrumbs, projectCrumbs). */
  crumbs: Crumb[];
}) {
  return (
    <>
      <Breadcrumbs items={props.crumbs} />
      <PageHeader title={props.name} description={props.description || undefined}>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <VisibilityBadge visibility={props.visibility} />
          <span>
            {props.kind} ID: {props.id}
          </span>
        </p>
      </PageHeader>
    </>
  );
}
