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
  {
    label: 'Access tokens',
    href: '/-/user_settings/personal_access_tokens',
    match: '/-/user_settings/personal_access_tokens',
  },
  { label: 'Active sessions', href: '/-/user_settings/active_sessions', match: '/-/user_settings/active_sessions' },
  // GitLab's admin path; non-admins see the runners they own there (GET /runners instead of /runners/all).
  { label: 'Runners', href: '/admin/runners', match: '/admin/runners' },
];

export const firstPage = () => NAVIGATION[0].href;
