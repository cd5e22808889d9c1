// /dashboard: GitLab's dashboard opens on the projects list.
import { redirect } from 'next/navigation';

export default function DashboardPage() {
  redirect('/dashboard/projects');
}
