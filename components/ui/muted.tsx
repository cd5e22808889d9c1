// Secondary text ("None", "Never", "(optional)"). Slate-500 is the lightest grey that still meets WCAG AA
// (4.5:1) on white and on the slate-50 page; slate-400 did not (2.6:1).
import type { ReactNode } from 'react';
import { cn } from './cn';

export function Muted({ children, className }: { children: ReactNode; className?: string }) {
  return <span className={cn('text-slate-500', className)}>{children}</span>;
}

export const muted = (text: string) => <Muted>{text}</Muted>;
