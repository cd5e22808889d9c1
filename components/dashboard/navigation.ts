// The dashboard's pages, in menu order. A new page adds one entry here (Runners, Projects, ...). Icons are
// named, not imported, so the CLI's start message can read this list without loading React.
import { docsHref, DOCS_PAGES } from '../../lib/meta/docs-pages';

export type NavIcon = 'projects' | 'groups' | 'tokens' | 'sessions' | 'runners' | 'fleet' | 'alerts' | 'admin' | 'api' | 'docs';

export interface NavItem {
  label: string;
  href: string;
  /** Paths under this prefix highlight the item. */
  match: string;
  icon: NavIcon;
  /** Shown only to administrators. */
  adminOnly?: boolean;
  /** The menu's section: GitLab's "Your work", the Admin area, Help. */
  section: 'work' | 'admin' | 'help';
}

export const NAVIGATION: NavItem[] = [
  // GitLab's "Your work": signed-in users land on their projects.
  { label: 'Projects', href: '/dashboard/projects', match: '/dashboard/projects', icon: 'projects', section: 'work' },
  { label: 'Groups', href: '/dashboard/groups', match: '/dashboard/groups', icon: 'groups', section: 'work' },
  {
    label: 'Access tokens',
    href: '/-/user_settings/personal_access_tokens',
    match: '/-/user_settings/personal_access_tokens',
    icon: 'tokens',
    section: 'work',
  },
  { label: 'Active sessions', href: '/-/user_settings/active_sessions', match: '/-/user_settings/active_sessions', icon: 'sessions', section: 'work' },
  // GitLab's admin path (admins only): other users reach runners from their groups' and projects' pages,
  // which the menu's "Runners" disclosure lists for them (side-nav.tsx).
  { label: 'Runners', href: '/admin/runners', match: '/admin/runners', icon: 'runners', adminOnly: true, section: 'admin' },
  // Runway's fleet overview (GitLab EE's "Fleet dashboard"), admins only.
  { label: 'Fleet dashboard', href: '/admin/runners/dashboard', match: '/admin/runners/dashboard', icon: 'fleet', adminOnly: true, section: 'admin' },
  // Runway's fleet alerts (issue 33): rules, the alert history, admins only.
  { label: 'Fleet alerts', href: '/admin/runners/alerts', match: '/admin/runners/alerts', icon: 'alerts', adminOnly: true, section: 'admin' },
  // GitLab answers 404 to non-admins at /admin.
  { label: 'Admin area', href: '/admin', match: '/admin', icon: 'admin', adminOnly: true, section: 'admin' },
  // GitLab's "Help" menu links the API docs under /help/api.
  { label: 'API reference', href: '/help/api', match: '/help/api', icon: 'api', section: 'help' },
  // Then every page of docs/, read from the installation (/help/docs/<page>).
  ...DOCS_PAGES.map((page): NavItem => ({ label: page.label, href: docsHref(page), match: docsHref(page), icon: 'docs', section: 'help' })),
];

/** The item to highlight: the one whose `match` is the longest prefix of the path (/admin/runners is Runners, not Admin area). */
export function activeItem(items: NavItem[], pathname: string): NavItem | undefined {
  return items.filter((item) => pathname === item.match || pathname.startsWith(`${item.match}/`)).sort((a, b) => b.match.length - a.match.length)[0];
}

export const firstPage = () => NAVIGATION[0].href;
