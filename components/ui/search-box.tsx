'use client';
// A search field that reports what was typed after a pause (or at once on Enter), so a server-side search
// runs once per phrase rather than once per key. The caller's value (the URL) wins when it changes
// elsewhere, e.g. on Back.
import { useEffect, useId, useRef, useState } from 'react';
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
  const reported = useRef(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  useEffect(() => {
    reported.current = value;
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);

  useEffect(() => {
    const phrase = text.trim();
    if (phrase === reported.current) return;
    const timer = setTimeout(() => {
      reported.current = phrase;
      latest.current(phrase);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);

  return (
    <form
      role="search"
      aria-label={label}
      className={cn('flex flex-col gap-1', className)}
      onSubmit={(e) => {
        e.preventDefault();
        reported.current = text.trim();
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
