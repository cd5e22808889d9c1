// The dashboard's pages, in menu order. A new page adds one entry here (Runners, Projects, ...).
export interface NavItem {
  label: string;
  href: string;
  /** Paths under this prefix highlight the item. */
  match: string;
  /** Shown only to administrators. */
  adminOnly?: boolean;
}

export const NAVIGATION: NavItem[] = [
  // GitLab's "Your work": signed-in users land on their projects.
  { label: 'Projects', href: '/dashboard/projects', match: '/dashboard/projects' },
  { label: 'Groups', href: '/dashboard/groups', match: '/dashboard/groups' },
  {
    label: 'Access tokens',
    href: '/-/user_settings/personal_access_tokens',
    match: '/-/user_settings/personal_access_tokens',
  },
  { label: 'Active sessions', href: '/-/user_settings/active_sessions', match: '/-/user_settings/active_sessions' },
  // GitLab's admin path (admins only): other users reach runners from their groups' and projects' pages.
  { label: 'Runners', href: '/admin/runners', match: '/admin/runners', adminOnly: true },
  // Runway's fleet overview (GitLab EE's "Fleet dashboard"), admins only.
  { label: 'Fleet dashboard', href: '/admin/runners/dashboard', match: '/admin/runners/dashboard', adminOnly: true },
  // GitLab answers 404 to non-admins at /admin.
  { label: 'Admin area', href: '/admin', match: '/admin', adminOnly: true },
  // GitLab's "Help" menu links the API docs under /help/api.
  { label: 'API reference', href: '/help/api', match: '/help/api' },
];

/** The item to highlight: the one whose `match` is the longest prefix of the path (/admin/runners is Runners, not Admin area). */
export function activeItem(items: NavItem[], pathname: string): NavItem | undefined {
  return items.filter((item) => pathname === item.match || pathname.startsWith(`${item.match}/`)).sort((a, b) => b.match.length - a.match.length)[0];
}

export const firstPage = () => NAVIGATION[0].href;
