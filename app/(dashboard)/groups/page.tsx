// /groups: GitLab sends it to the user's groups.
import { redirect } from 'next/navigation';

export default function GroupsIndexPage() {
  redirect('/dashboard/groups');
}
