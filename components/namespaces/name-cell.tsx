// A list row's first cell: the linked name (with an optional muted prefix such as the namespace) and the
// description under it, both cut to one line.
import Link from 'next/link';

export function NameCell({ href, name, prefix, description }: { href: string; name: string; prefix?: string; description?: string | null }) {
  return (
    <div className="flex max-w-[16rem] flex-col sm:max-w-md">
      <Link href={href} className="truncate font-medium text-indigo-700 hover:underline">
        {prefix && <span className="font-normal text-slate-500">{prefix} / </span>}
        {name}
      </Link>
      {description && <span className="truncate text-xs text-slate-500">{description}</span>}
    </div>
  );
}
