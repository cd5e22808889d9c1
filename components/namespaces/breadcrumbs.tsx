// The path above a project or group page: each group in a full path links to its page; a personal
// namespace (a user) is plain text, Runway having no user profile pages.
import Link from 'next/link';
import { groupHref, projectHref } from '@/lib/client/paths';

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
  const segments = namespacePath ? namespacePath.split('/') : [];
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        {segments.map((segment, i) => (
          <li key={i} className="flex items-center gap-1">
            {personal ? (
              <span>{segment}</span>
            ) : (
              <Link href={groupHref(segments.slice(0, i + 1).join('/'))} className="hover:text-slate-900 hover:underline">
                {segment}
              </Link>
            )}
            <span aria-hidden className="text-slate-300">
              /
            </span>
          </li>
        ))}
        {project && (
          <li className="flex items-center gap-1">
            <Link href={projectHref(project.fullPath)} className="hover:text-slate-900 hover:underline">
              {project.name}
            </Link>
            <span aria-hidden className="text-slate-300">
              /
            </span>
          </li>
        )}
        <li aria-current="page" className="font-medium text-slate-900">
          {current}
        </li>
      </ol>
    </nav>
  );
}
