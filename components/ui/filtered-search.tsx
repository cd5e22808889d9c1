'use client';
// GitLab's filtered-search bar, the part every list shares: one combobox that first offers the list's tokens
// (Status, Author, Target branch, ...) or a free-text search, then the chosen token's values; the filters in
// force show as chips that remove themselves. Keyboard: arrows move through the options, Enter picks, Escape
// steps back, Backspace on an empty box removes the last chip. Focus stays in the box when a value is
// applied or a chip removed, so it never falls to <body>.
//
// A list keeps its own tokens, values and chips (its filters' type `C` is what a pick or a removal
// changes): it calls useFilteredSearch for the box's state, computes the values of `state.stage` from
// `state.trimmed` (with its own queries), and draws <FilteredSearch>.
import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';
import { inputClass } from './input';

export interface FilterToken<T extends string> {
  type: T;
  label: string;
  hint: string;
}

/** A value of the token being filled in: picking it applies `changes`. */
export interface FilterOption<C> {
  key: string;
  text: string;
  detail?: string;
  icon?: ReactNode;
  changes: C;
}

/** A filter in force, drawn as a chip that applies `remove`. */
export interface FilterChip<C> {
  key: string;
  name: string;
  value: string;
  remove: C;
}

/** "Use “x”": a typed value the suggestions did not offer. */
export const typedOption = <C,>(value: string, changes: C): FilterOption<C> => ({ key: `use:${value}`, text: `Use “${value}”`, changes });

/** Whether a suggestion contains what was typed (any case). */
export const matchesTyped = (candidate: string, typed: string) => candidate.toLowerCase().includes(typed.toLowerCase());

/** Token names match from the start of a word ("ta" is Tag, not Status); a whole name typed matches too. */
const startsWord = (name: string, typed: string) => {
  const t = typed.toLowerCase();
  const n = name.toLowerCase();
  return n.startsWith(t) || n.split(/\s+/).some((w) => w.startsWith(t));
};

/** The box's state: the token being filled in (`stage`), the text, whether the list is open. */
export function useFilteredSearch<T extends string>() {
  const input = useRef<HTMLInputElement>(null);
  const [stage, setStage] = useState<T | null>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // A server-rendered list: a user can focus the box, or type in it, before React takes the page over, and
  // the focus event is gone by then. Take over both at hydration.
  useEffect(() => {
    const box = input.current;
    if (!box || document.activeElement !== box) return;
    if (box.value) setText(box.value);
    setOpen(true);
  }, []);
  return { input, stage, setStage, text, setText, trimmed: text.trim(), open, setOpen, active, setActive };
}

export type FilteredSearchState<T extends string> = ReturnType<typeof useFilteredSearch<T>>;

export interface FilteredSearchProps<T extends string, C> {
  state: FilteredSearchState<T>;
  /** The input's id (a page's "Clear filters" or a test can focus it). */
  inputId: string;
  /** The box's name while no token is being filled in: "Search or filter runners". */
  label: string;
  /** The list's tokens, in the order offered. */
  tokens: FilterToken<T>[];
  /** A token already in force that takes one value only: not offered again. */
  taken?: (type: T) => boolean;
  /** The values of `state.stage` for `state.trimmed`. */
  values: FilterOption<C>[];
  /** What the list says when `values` is empty ("Type a username", "Loading users…"). */
  valuesHint: string;
  /** Free text: what the search looks in ("in titles and descriptions") and the change it applies. */
  search: { detail: string; changes: (text: string) => C };
  chips: FilterChip<C>[];
  onChange: (changes: C) => void;
}

interface Option<T, C> {
  key: string;
  text: string;
  detail?: string;
  icon?: ReactNode;
  /** Picking it either opens a token's values or applies filter changes. */
  next?: T;
  changes?: C;
}

export function FilteredSearch<T extends string, C>({
  state,
  inputId,
  label: boxLabel,
  tokens,
  taken = () => false,
  values,
  valuesHint,
  search,
  chips,
  onChange,
}: FilteredSearchProps<T, C>) {
  const id = useId();
  const { input, stage, setStage, text, setText, trimmed, open, setOpen, active, setActive } = state;
  // A focus the bar gives itself after removing a chip: the box takes it without opening its list.
  const quiet = useRef(false);
  const label = (t: T) => tokens.find((x) => x.type === t)?.label ?? t;

  const reset = (next: T | null = null) => {
    setStage(next);
    setText('');
    setActive(0);
    input.current?.focus();
  };
  const apply = (changes: C) => {
    onChange(changes);
    reset();
  };
  const remove = (chip: FilterChip<C>) => {
    onChange(chip.remove);
    if (document.activeElement !== input.current) {
      quiet.current = true;
      input.current?.focus();
    }
  };

  const options: Option<T, C>[] =
    stage === null
      ? [
          ...tokens
            .filter((t) => !taken(t.type) && startsWord(t.label, trimmed))
            .map<Option<T, C>>((t) => ({ key: t.type, text: t.label, detail: t.hint, next: t.type })),
          ...(trimmed
            ? [
                {
                  key: 'search',
                  text: `Search for “${trimmed}”`,
                  detail: search.detail,
                  icon: <Search aria-hidden className="size-4" />,
                  changes: search.changes(trimmed),
                },
              ]
            : []),
        ]
      : values;
  const pick = (o: Option<T, C>) => (o.next ? reset(o.next) : o.changes !== undefined && apply(o.changes));

  const current = Math.min(active, Math.max(0, options.length - 1));
  const listId = `${id}-options`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const expanded = open && (options.length > 0 || stage !== null);

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (options.length) setActive((current + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open && options[current]) pick(options[current]);
      else if (stage === null && trimmed) apply(search.changes(trimmed));
    } else if (e.key === 'Escape') {
      if (stage !== null) reset();
      else setOpen(false);
    } else if (e.key === 'Backspace' && text === '') {
      if (stage !== null) reset();
      else if (chips.length) onChange(chips[chips.length - 1].remove);
    }
  }

  return (
    <div className="relative min-w-0 flex-1">
      <div
        className="flex min-h-9 w-full flex-wrap items-center gap-1 rounded-md bg-white px-2 py-1 shadow-sm ring-1 ring-inset ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-600"
        onClick={() => input.current?.focus()}
      >
        <Search aria-hidden className="size-4 shrink-0 text-slate-400" />
        <ul aria-label="Active filters" className="contents">
          {chips.map((c) => (
            <li key={c.key} className="flex min-w-0 max-w-full">
              <button
                type="button"
                onClick={(e) => {
                  e.stopPropagation();
                  remove(c);
                }}
                aria-label={`Remove filter ${c.name} = ${c.value}`}
                title={c.value.length > 40 ? c.value : undefined}
                className="inline-flex min-w-0 max-w-full items-center gap-1 rounded bg-slate-100 py-0.5 pl-1.5 pr-1 text-xs text-slate-800 ring-1 ring-inset ring-slate-200 hover:bg-slate-200"
              >
                <span className="shrink-0 font-medium text-slate-600">{c.name} =</span>
                <span className="truncate">{c.value}</span>
                <X aria-hidden className="size-3.5 shrink-0 text-slate-500" />
              </button>
            </li>
          ))}
        </ul>
        {stage && (
          <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-800 ring-1 ring-inset ring-indigo-200" aria-hidden>
            {label(stage)} =
          </span>
        )}
        <input
          ref={input}
          id={inputId}
          role="combobox"
          aria-label={stage ? `${label(stage)}: choose or type a value` : boxLabel}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && options.length ? optionId(current) : undefined}
          autoComplete="off"
          value={text}
          placeholder={stage ? 'Choose or type a value' : chips.length ? '' : 'Search or filter results…'}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => {
            if (!quiet.current) setOpen(true);
            quiet.current = false;
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="h-7 min-w-32 flex-1 border-0 bg-transparent p-0 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-0"
        />
      </div>
      {expanded && (
        <div className="absolute left-0 right-0 z-20 mt-1 max-h-72 overflow-y-auto rounded-md bg-white py-1 shadow-lg ring-1 ring-slate-200 sm:right-auto sm:min-w-72">
          <ul id={listId} role="listbox" aria-label={stage ? `${label(stage)} values` : 'Filters'}>
            {options.map((o, i) => (
              <li
                key={o.key}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                // mousedown, not click: the input keeps focus (its blur would close the list first).
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(o);
                }}
                onMouseEnter={() => setActive(i)}
                className={cn('flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-slate-800', i === current && 'bg-indigo-50 text-indigo-900')}
              >
                {o.icon}
                <span className="min-w-0 truncate">{o.text}</span>
                {o.detail && <span className="ml-auto shrink-0 pl-3 text-xs text-slate-500">{o.detail}</span>}
              </li>
            ))}
          </ul>
          {!options.length && <p className="px-3 py-1.5 text-sm text-slate-500">{valuesHint}</p>}
        </div>
      )}
    </div>
  );
}

/** Beside the bar: the list's sort, and "Clear filters" while any filter is in force (`onClear`). */
export function SortAndClear<S extends string>({
  id,
  value,
  sorts,
  onSort,
  onClear,
}: {
  id: string;
  value: S;
  sorts: readonly { value: S; label: string }[];
  onSort: (sort: S) => void;
  onClear?: () => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Sort by
      </label>
      <select id={id} value={value} onChange={(e) => onSort(e.target.value as S)} className={cn(inputClass, 'h-9 min-w-0 flex-1 sm:w-64 sm:flex-none')}>
        {sorts.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
      {onClear && (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
