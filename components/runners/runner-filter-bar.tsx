'use client';
// The runner list's filtered search (GitLab's filtered-search bar): one combobox that first offers a token
// (Status, Type, Paused, Tag, Version, Creator, owner ids) or a free-text search, then that token's values; the
// chosen filters show as removable tokens. Keyboard: arrows move through the options, Enter picks,
// Escape steps back, Backspace on an empty box removes the last token.
import { Search, X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../ui/cn';
import { RUNNER_TYPES, STATUS_FILTERS, TAG_MAX_LENGTH, USERNAME, VERSION_PREFIX, type RunnerFilters } from '@/lib/client/runner-filters';
import { StatusIcon, TypeIcon } from './runner-badges';
import { useRunnerTagSuggestions, useUserSuggestions } from './use-runners';

type TokenType = 'status' | 'type' | 'paused' | 'tag' | 'version' | 'creator' | 'owner_group' | 'owner_project';

const TOKENS: Array<{ type: TokenType; label: string; hint: string }> = [
  { type: 'status', label: 'Status', hint: 'Online, offline, stale, never contacted' },
  { type: 'type', label: 'Type', hint: 'Instance, group or project' },
  { type: 'paused', label: 'Paused', hint: 'Yes or no' },
  { type: 'tag', label: 'Tag', hint: 'Runners with every chosen tag' },
  { type: 'version', label: 'Version', hint: 'A version prefix, such as 17.5' },
  { type: 'creator', label: 'Creator', hint: 'The user who created the runner' },
  { type: 'owner_group', label: 'Owner group ID', hint: 'Group runners of one group' },
  { type: 'owner_project', label: 'Owner project ID', hint: 'Project runners of one project' },
];
const label = (t: TokenType) => TOKENS.find((x) => x.type === t)!.label;

interface Option {
  key: string;
  text: string;
  detail?: string;
  icon?: React.ReactNode;
  /** Picking it either opens a token's values or applies filter changes. */
  next?: TokenType;
  changes?: Partial<RunnerFilters>;
}

/** A chosen filter, shown as a token that removes itself. */
interface Chip {
  key: string;
  name: string;
  value: string;
  remove: Partial<RunnerFilters>;
}

function chipsOf(f: RunnerFilters): Chip[] {
  const chips: Chip[] = [];
  if (f.status) chips.push({ key: 'status', name: 'Status', value: STATUS_FILTERS.find((s) => s.value === f.status)!.label, remove: { status: undefined } });
  if (f.type) chips.push({ key: 'type', name: 'Type', value: RUNNER_TYPES.find((t) => t.value === f.type)!.label, remove: { type: undefined } });
  if (f.paused !== undefined) chips.push({ key: 'paused', name: 'Paused', value: f.paused ? 'Yes' : 'No', remove: { paused: undefined } });
  for (const t of f.tags) chips.push({ key: `tag:${t}`, name: 'Tag', value: t, remove: { tags: f.tags.filter((x) => x !== t) } });
  if (f.versionPrefix) chips.push({ key: 'version', name: 'Version', value: f.versionPrefix, remove: { versionPrefix: undefined } });
  if (f.creator) chips.push({ key: 'creator', name: 'Creator', value: f.creator, remove: { creator: undefined } });
  if (f.ownerGroupId) chips.push({ key: 'owner_group', name: 'Owner group ID', value: f.ownerGroupId, remove: { ownerGroupId: undefined } });
  if (f.ownerProjectId) chips.push({ key: 'owner_project', name: 'Owner project ID', value: f.ownerProjectId, remove: { ownerProjectId: undefined } });
  if (f.search) chips.push({ key: 'search', name: 'Search', value: f.search, remove: { search: undefined } });
  return chips;
}

export interface RunnerFilterBarProps {
  filters: RunnerFilters;
  onChange: (changes: Partial<RunnerFilters>) => void;
  /** Group lists: no instance type, no owner filters. */
  group: boolean;
  /** Tag suggestions come from the instance's tags (admins only, as GitLab's admin list). */
  suggestTags: boolean;
}

export function RunnerFilterBar({ filters, onChange, group, suggestTags }: RunnerFilterBarProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [stage, setStage] = useState<TokenType | null>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const trimmed = text.trim();
  const tags = useRunnerTagSuggestions(trimmed, open && stage === 'tag' && suggestTags);
  const users = useUserSuggestions(trimmed, open && stage === 'creator');
  const chips = chipsOf(filters);

  const reset = (next: TokenType | null = null) => {
    setStage(next);
    setText('');
    setActive(0);
    input.current?.focus();
  };
  const apply = (changes: Partial<RunnerFilters>) => {
    onChange(changes);
    reset();
  };

  const options = ((): Option[] => {
    const match = (s: string) => s.toLowerCase().includes(trimmed.toLowerCase());
    // Token names match from the start of a word ("ta" is Tag, not Status).
    // A whole name typed ("Owner group ID") matches too.
    const startsWord = (s: string) => {
      const t = trimmed.toLowerCase();
      return (
        s.toLowerCase().startsWith(t) ||
        s
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(t))
      );
    };
    const use = (value: string, changes: Partial<RunnerFilters>): Option => ({ key: `use:${value}`, text: `Use “${value}”`, changes });
    switch (stage) {
      case null: {
        const taken = (t: TokenType) =>
          (t === 'status' && filters.status) ||
          (t === 'type' && filters.type) ||
          (t === 'paused' && filters.paused !== undefined) ||
          (t === 'version' && filters.versionPrefix) ||
          (t === 'creator' && filters.creator) ||
          (t === 'owner_group' && filters.ownerGroupId) ||
          (t === 'owner_project' && filters.ownerProjectId);
        const tokens = TOKENS.filter((t) => !(group && t.type.startsWith('owner_')) && !taken(t.type) && startsWord(t.label)).map<Option>((t) => ({
          key: t.type,
          text: t.label,
          detail: t.hint,
          next: t.type,
        }));
        const search: Option[] = trimmed
          ? [
              {
                key: 'search',
                text: `Search for “${trimmed}”`,
                detail: 'in descriptions',
                icon: <Search aria-hidden className="size-4" />,
                changes: { search: trimmed },
              },
            ]
          : [];
        return [...tokens, ...search];
      }
      case 'status':
        return STATUS_FILTERS.filter((s) => match(s.label)).map((s) => ({
          key: s.value,
          text: s.label,
          icon: <StatusIcon status={s.value} className="size-4" />,
          changes: { status: s.value },
        }));
      case 'type':
        return RUNNER_TYPES.filter((t) => !(group && t.value === 'instance_type') && match(t.label)).map((t) => ({
          key: t.value,
          text: t.label,
          icon: <TypeIcon type={t.value} className="size-4" />,
          changes: { type: t.value },
        }));
      case 'paused':
        return [
          { key: 'true', text: 'Yes', changes: { paused: true } },
          { key: 'false', text: 'No', changes: { paused: false } },
        ].filter((o) => match(o.text));
      case 'tag': {
        const add = (t: string) => ({ tags: [...filters.tags.filter((x) => x !== t), t] });
        // The exact name first, so typing a whole tag and pressing Enter picks it.
        const names = (tags.data ?? []).map((t) => t.name).filter((n) => !filters.tags.includes(n));
        const ordered = [...names.filter((n) => n === trimmed), ...names.filter((n) => n !== trimmed)];
        const known = ordered.map<Option>((n) => ({ key: `tag:${n}`, text: n, changes: add(n) }));
        const typed = trimmed && trimmed.length <= TAG_MAX_LENGTH && !known.some((o) => o.text === trimmed) ? [use(trimmed, add(trimmed))] : [];
        return [...typed, ...known];
      }
      case 'version':
        return trimmed && VERSION_PREFIX.test(trimmed) ? [use(trimmed, { versionPrefix: trimmed })] : [];
      case 'creator': {
        // Users by username or name; a typed username the search did not return can still be used.
        const known = (users.data ?? []).map<Option>((u) => ({
          key: `user:${u.id}`,
          text: u.name,
          detail: `@${u.username}`,
          changes: { creator: u.username },
        }));
        const listed = (users.data ?? []).some((u) => u.username.toLowerCase() === trimmed.toLowerCase());
        const typed = trimmed && USERNAME.test(trimmed) && !listed ? [use(trimmed, { creator: trimmed })] : [];
        return [...known, ...typed];
      }
      case 'owner_group':
      case 'owner_project':
        return /^[1-9]\d{0,9}$/.test(trimmed) ? [use(trimmed, stage === 'owner_group' ? { ownerGroupId: trimmed } : { ownerProjectId: trimmed })] : [];
    }
  })();
  const pick = (o: Option) => (o.next ? reset(o.next) : apply(o.changes ?? {}));

  const current = Math.min(active, Math.max(0, options.length - 1));
  const listId = `${id}-options`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const expanded = open && (options.length > 0 || stage !== null);
  const emptyHint =
    stage === 'version'
      ? 'Type a version prefix, such as 17 or 17.5'
      : stage === 'owner_group' || stage === 'owner_project'
        ? 'Type an ID'
        : stage === 'tag'
          ? tags.isFetching
            ? 'Loading tags…'
            : 'Type a tag'
          : stage === 'creator'
            ? users.isFetching
              ? 'Loading users…'
              : 'Type a username'
            : 'No matches';

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (options.length) setActive((current + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open && options[current]) pick(options[current]);
      else if (stage === null && trimmed) apply({ search: trimmed });
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
                  onChange(c.remove);
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
          id="runner-filter-input"
          role="combobox"
          aria-label={stage ? `${label(stage)}: choose or type a value` : 'Search or filter runners'}
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
          onFocus={() => setOpen(true)}
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
          {!options.length && <p className="px-3 py-1.5 text-sm text-slate-500">{emptyHint}</p>}
        </div>
      )}
    </div>
  );
}
