// /-/user_settings/active_sessions: GitLab's path for the user's signed-in devices.
import type { Metadata } from 'next';
import { ActiveSessions } from '@/components/sessions/active-sessions';

export const metadata: Metadata = { title: 'Active sessions · Runway' };

export default function ActiveSessionsPage() {
  return <ActiveSessions />;
}
