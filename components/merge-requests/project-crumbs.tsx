// The path above a page inside a project: its namespace, the project, then the section and item, each a link.
import Link from 'next/link';
import { projectHref } from '@/lib/client/paths';

export function ProjectCrumbs({ fullPath, trail }: { fullPath: string; trail: { label: string; href?: string }[] }) {
  const parts = fullPath.split('/');
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        <li className="flex items-center gap-1">
          <span>{parts.slice(0, -1).join(' / ')}</span>
          <span aria-hidden className="text-slate-300">
            /
          </span>
        </li>
        <li className="flex items-center gap-1">
          <Link href={projectHref(fullPath)} className="hover:text-slate-900 hover:underline">
            {parts[parts.length - 1]}
          </Link>
        </li>
        {trail.map((t, i) => (
          <li key={i} className="flex items-center gap-1">
            <span aria-hidden className="text-slate-300">
              /
            </span>
            {t.href ? (
              <Link href={t.href} className="hover:text-slate-900 hover:underline">
                {t.label}
              </Link>
            ) : (
              <span aria-current="page" className="font-medium text-slate-900">
                {t.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
