'use client';
// A search field that reports what was typed after a pause (or at once on Enter), so a server-side search
// runs once per phrase rather than once per key. The caller's value (the URL) wins when it changes
// elsewhere, e.g. on Back.
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { cn } from './cn';

export interface SearchBoxProps {
  label: string;
  placeholder?: string;
  value: string;
  onSearch: (value: string) => void;
  delayMs?: number;
  className?: string;
}

export function SearchBox({ label, placeholder, value, onSearch, delayMs = 400, className }: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(value);
  // The last phrase reported or received from the caller: typing back to it reports nothing.
  const [reported, setReported] = useState(value);
  const report = useEffectEvent(onSearch);

  // The caller's value changed elsewhere: taken in while rendering, so no effect sets state a render late.
  const [received, setReceived] = useState(value);
  if (value !== received) {
    setReceived(value);
    setReported(value);
    if (text.trim() !== value) setText(value);
  }

  useEffect(() => {
    const phrase = text.trim();
    if (phrase === reported) return;
    const timer = setTimeout(() => {
      setReported(phrase);
      report(phrase);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, reported, delayMs]);

  return (
    <form
      role="search"
      aria-label={label}
      className={cn('flex flex-col gap-1', className)}
      onSubmit={(e) => {
        e.preventDefault();
        setReported(text.trim());
        onSearch(text.trim());
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        className="block h-9 w-full rounded-md border-0 px-3 text-sm text-slate-900 shadow-sm outline-none ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600"
      />
    </form>
  );
}
