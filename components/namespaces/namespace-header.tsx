// A project's or group's title: breadcrumbs to its parents, the name, visibility, id and description.
import { PageHeader } from '../ui/page-header';
import type { Visibility } from '@/lib/client/types';
import { NamespaceBreadcrumbs } from './breadcrumbs';
import { VisibilityBadge } from './visibility-badge';

export function NamespaceHeader(props: {
  kind: 'Project' | 'Group';
  id: number;
  name: string;
  description: string | null;
  visibility: Visibility | undefined;
  /** The parent's full path (null for a top-level group). */
  parentPath: string | null;
  personalParent?: boolean;
}) {
  return (
    <>
      <NamespaceBreadcrumbs namespacePath={props.parentPath} personal={props.personalParent} current={props.name} />
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
