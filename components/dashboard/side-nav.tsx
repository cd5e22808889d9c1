'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '../ui/cn';
import { activeItem, NAVIGATION } from './navigation';

export function SideNav({ admin }: { admin: boolean }) {
  const pathname = usePathname();
  const items = NAVIGATION.filter((item) => admin || !item.adminOnly);
  const current = activeItem(items, pathname);
  return (
    <nav aria-label="Main" className="-mx-1 flex gap-0.5 overflow-x-auto px-1 pb-1 md:mx-0 md:flex-col md:overflow-visible md:px-0 md:pb-0">
      {items.map((item) => {
        const active = item === current;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'shrink-0 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium',
              active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
            )}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
