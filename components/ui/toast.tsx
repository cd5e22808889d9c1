'use client';
// Completed actions are confirmed with a toast (GitLab's toast after deleting a runner, saving settings...).
// One Toaster per dashboard; components call `toast` from here so the library stays swappable.
import { Toaster as SonnerToaster, toast } from 'sonner';

export { toast };

export function Toaster() {
  return <SonnerToaster position="bottom-left" closeButton richColors={false} toastOptions={{ className: 'text-sm' }} />;
}
