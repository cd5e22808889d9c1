// /admin/runners/:id: one runner (details, managers, jobs, and its actions).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { RunnerDetail } from '@/components/runners/runner-detail';
import { LoadingState } from '@/components/ui/states';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Runner #${(await params).id} · Runway` };
}

export default async function RunnerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // Only positive integers are runner ids; anything else is not a page.
  if (!/^\d{1,15}$/.test(id) || Number(id) < 1) notFound();
  return (
    <Suspense fallback={<LoadingState />}>
      <RunnerDetail id={Number(id)} />
    </Suspense>
  );
}
