// /admin/users/:id/edit: an administrator edits a user (PUT /users/:id).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { EditUser } from '@/components/admin/user-form';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'Edit user · Admin area · Runway' };

export default async function EditUserPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin();
  const { id } = await params;
  if (!/^[1-9]\d{0,9}$/.test(id)) notFound();
  return <EditUser id={Number(id)} />;
}
