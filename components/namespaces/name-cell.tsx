// A list row's first cell: the linked name (with an optional muted prefix such as the namespace) and the
// description under it (cut to one line); long names wrap rather than hide on narrow screens.
import Link from 'next/link';

export function NameCell({ href, name, prefix, description }: { href: string; name: string; prefix?: string; description?: string | null }) {
  return (
    <div className="flex min-w-[12rem] max-w-[16rem] flex-col whitespace-normal sm:max-w-md">
      <Link href={href} className="break-words font-medium text-indigo-700 hover:underline">
        {prefix && <span className="font-normal text-slate-500">{prefix} / </span>}
        {name}
      </Link>
      {description && <span className="truncate text-xs text-slate-500">{description}</span>}
    </div>
  );
}
