import type { ComponentProps, MouseEvent } from 'react';
import { cn } from './cn';

// Hover darkens (never lightens) filled buttons: white text keeps 4.5:1 on every state.
const variants = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-indigo-600 disabled:bg-indigo-300 aria-disabled:bg-indigo-300',
  secondary: 'bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400 aria-disabled:text-slate-400',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:outline-red-600 disabled:bg-red-300 aria-disabled:bg-red-300',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-300 aria-disabled:text-slate-300',
  dangerGhost: 'text-red-600 hover:bg-red-50 hover:text-red-700 disabled:text-red-300 aria-disabled:text-red-300',
} as const;

const sizes = { sm: 'h-8 px-3 text-xs', md: 'h-9 px-4 text-sm' } as const;

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
}

/** A button's look, also for links that act as buttons (GitLab's "Edit", "New runner"). */
export const buttonClass = (variant: keyof typeof variants = 'primary', size: keyof typeof sizes = 'md', className?: string) =>
  cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed aria-disabled:cursor-not-allowed',
    variants[variant],
    sizes[size],
    className,
  );

/**
 * `disabled` is aria-disabled with clicks (and a form's implicit submission through it) ignored, never the
 * `disabled` attribute: a button disabled while its request runs (Pause, Save, Sign in) would otherwise drop
 * keyboard focus to <body>, so the next Enter goes nowhere.
 */
export function Button({ variant = 'primary', size = 'md', className, type = 'button', disabled, onClick, ...props }: ButtonProps) {
  const guarded = (e: MouseEvent<HTMLButtonElement>) => {
    if (disabled) return e.preventDefault();
    onClick?.(e);
  };
  return <button type={type} className={buttonClass(variant, size, className)} aria-disabled={disabled || undefined} onClick={guarded} {...props} />;
}
