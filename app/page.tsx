// `/` opens the dashboard's first page (the dashboard layout sends signed-out visitors to /sign-in).
import { redirect } from 'next/navigation';
import { firstPage } from '@/components/dashboard/navigation';

export default function Home() {
  redirect(firstPage());
}
