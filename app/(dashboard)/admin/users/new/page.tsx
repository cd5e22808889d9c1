// /admin/users/new: an administrator creates a user (POST /users).
import type { Metadata } from 'next';
import { NewUser } from '@/components/admin/user-form';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'New user · Admin area · Runway' };

export default async function NewUserPage() {
  await requireAdmin();
  return <NewUser />;
}
