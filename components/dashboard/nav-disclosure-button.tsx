'use client';
// The menu's disclosure buttons ("Runners" for non-admins, Help's "Documentation"): an entry that opens a
// list below it instead of leading to a page, drawn like the links beside it, with a chevron that turns.
import { ChevronDown, type LucideIcon } from 'lucide-react';
import { cn } from '../ui/cn';

export function NavDisclosureButton({
  icon: Icon,
  label,
  open,
  here,
  panelId,
  onToggle,
}: {
  icon: LucideIcon;
  label: string;
  open: boolean;
  /** The current page is in the list: drawn as the active entry's colour. */
  here: boolean;
  panelId: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={panelId}
      onClick={onToggle}
      className={cn(
        'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
        here ? 'text-indigo-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
      )}
    >
      <Icon aria-hidden className={cn('size-4 shrink-0', here ? 'text-indigo-600' : 'text-slate-500')} />
      <span className="flex-1 text-left">{label}</span>
      <ChevronDown aria-hidden className={cn('size-4 shrink-0 text-slate-400 transition-transform', open && 'rotate-180')} />
    </button>
  );
}
