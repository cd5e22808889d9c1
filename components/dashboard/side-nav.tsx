'use client';
// The menu, in GitLab's sections: "Your work", the Admin area (administrators), Help. Each entry has its
// icon; the current page's entry is highlighted (aria-current). Drawn in the desktop sidebar and in the
// small-screen drawer (mobile-nav.tsx), never both at once.
import { Bell, BookOpen, FileText, FolderGit2, Gauge, KeyRound, LibraryBig, MonitorSmartphone, Server, Shield, Users, type LucideIcon } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useId, useState } from 'react';
import { cn } from '../ui/cn';
import { MaintainedRunners } from './maintained-runners';
import { NavDisclosureButton } from './nav-disclosure-button';
import { activeItem, NAVIGATION, type NavIcon, type NavItem } from './navigation';

const ICONS: Record<NavIcon, LucideIcon> = {
  projects: FolderGit2,
  groups: Users,
  tokens: KeyRound,
  sessions: MonitorSmartphone,
  runners: Server,
  fleet: Gauge,
  alerts: Bell,
  admin: Shield,
  api: BookOpen,
  docs: FileText,
};

const SECTIONS: { key: NavItem['section']; title: string }[] = [
  { key: 'work', title: 'Your work' },
  { key: 'admin', title: 'Admin' },
  { key: 'help', title: 'Help' },
];

export function SideNav({ admin }: { admin: boolean }) {
  const pathname = usePathname();
  const items = NAVIGATION.filter((item) => admin || !item.adminOnly);
  const current = activeItem(items, pathname);
  return (
    <nav aria-label="Main" className="flex flex-col gap-5">
      {SECTIONS.map(({ key, title }) => {
        const entries = items.filter((i) => i.section === key);
        if (!entries.length) return null;
        return (
          <div key={key} className="flex flex-col gap-1">
            <p className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</p>
            <ul className="flex flex-col gap-0.5">
              {entries
                .filter((item) => item.icon !== 'docs')
                .map((item) => (
                  <li key={item.href}>
                    <NavLink item={item} active={item === current} />
                  </li>
                ))}
              {key === 'help' && <DocsDisclosure pages={entries.filter((item) => item.icon === 'docs')} current={current} />}
              {key === 'work' && !admin && <MaintainedRunners pathname={pathname} />}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  const Icon = ICONS[item.icon];
  return (
    <Link
      href={item.href}
      // No prefetch when the menu comes into view: every dashboard page is rendered per request and has no
      // loading boundary, so a prefetch brings next to nothing for the next click, yet the eight of them
      // took the browser's connections and the server's time ahead of the page's own data (issue 23).
      prefetch={false}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'relative flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
        active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
      )}
    >
      {active && <span aria-hidden className="absolute inset-y-1.5 left-0 w-0.5 rounded-full bg-indigo-600" />}
      <Icon aria-hidden className={cn('size-4 shrink-0', active ? 'text-indigo-600' : 'text-slate-500')} />
      {item.label}
    </Link>
  );
}

/**
 * Help's documentation pages behind one disclosure (GitLab's Help menu is a menu too): nine links would push
 * the rest of the sidebar down. Open while one of them is the current page.
 */
function DocsDisclosure({ pages, current }: { pages: NavItem[]; current: NavItem | undefined }) {
  const here = !!current && pages.includes(current);
  const [open, setOpen] = useState(here);
  const panelId = useId();
  if (!pages.length) return null;
  return (
    <li>
      <NavDisclosureButton icon={LibraryBig} label="Documentation" open={open} here={here} panelId={panelId} onToggle={() => setOpen((o) => !o)} />
      {open && (
        <ul id={panelId} className="ml-5 mt-0.5 flex flex-col gap-0.5 border-l border-slate-200 pl-2">
          {pages.map((item) => (
            <li key={item.href}>
              <NavLink item={item} active={item === current} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
