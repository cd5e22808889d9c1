import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = { title: 'Runway', description: 'CI runners and merge request context commits' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, never prerendered: its scripts carry that request's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
