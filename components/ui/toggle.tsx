'use client';
// An on/off switch (GitLab's GlToggle): a button with role "switch" named by its visible label, with a help
// line under it and a busy state while the change is saved. Busy is aria-busy + aria-disabled, never the
// `disabled` attribute: that would drop keyboard focus to <body>, so the next Space would go nowhere.
import { useId, type ReactNode } from 'react';
import { cn } from './cn';

/** `hideLabel`: the label names the switch for screen readers only (a table row's switch under its column's header). */
export function Toggle(props: {
  label: string;
  checked: boolean;
  onChange: (next: boolean) => void;
  disabled?: boolean;
  busy?: boolean;
  help?: ReactNode;
  hideLabel?: boolean;
}) {
  const id = useId();
  const off = props.disabled || props.busy;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-3">
        <span id={`${id}-label`} className={props.hideLabel ? 'sr-only' : 'text-sm text-slate-700'}>
          {props.label}
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={props.checked}
          aria-labelledby={`${id}-label`}
          aria-describedby={props.help ? `${id}-help` : undefined}
          aria-busy={props.busy || undefined}
          aria-disabled={off || undefined}
          disabled={props.disabled}
          // A click or Space while the previous change is saved is ignored, not queued.
          onClick={() => !off && props.onChange(!props.checked)}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 aria-disabled:cursor-not-allowed',
            props.checked ? 'bg-indigo-600' : 'bg-slate-400',
            off && 'opacity-60',
          )}
        >
          <span
            aria-hidden
            className={cn('inline-block size-5 rounded-full bg-white shadow transition-transform', props.checked ? 'translate-x-5' : 'translate-x-0.5')}
          />
        </button>
      </div>
      {props.help && (
        <p id={`${id}-help`} className="text-xs text-slate-600">
          {props.help}
        </p>
      )}
    </div>
  );
}
