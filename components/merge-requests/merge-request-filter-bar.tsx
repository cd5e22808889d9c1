'use client';
// The merge request list's filtered search (GitLab's filtered-search bar, components/ui/filtered-search.tsx):
// the tokens Author, Assignee, Reviewer (users, as GitLab suggests them), Source branch and Target branch
// (the project's branches), and free text searched in titles and descriptions.
import { GitBranch } from 'lucide-react';
import { FilteredSearch, typedOption, useFilteredSearch, type FilterChip, type FilterOption, type FilterToken } from '../ui/filtered-search';
import { userHint, userOptions, useUserSuggestions } from '../users/user-suggestions';
import type { MrFilters } from '@/lib/client/merge-request-filters';
import { useBranchSuggestions } from './use-merge-requests';

type TokenType = 'author' | 'assignee' | 'reviewer' | 'sourceBranch' | 'targetBranch';
type Changes = Partial<MrFilters>;

const TOKENS: FilterToken<TokenType>[] = [
  { type: 'author', label: 'Author', hint: 'Who opened it' },
  { type: 'assignee', label: 'Assignee', hint: 'One of its assignees' },
  { type: 'reviewer', label: 'Reviewer', hint: 'One of its reviewers' },
  { type: 'sourceBranch', label: 'Source branch', hint: 'The branch to merge' },
  { type: 'targetBranch', label: 'Target branch', hint: 'The branch merged into' },
];
const USER_TOKENS = new Set<TokenType>(['author', 'assignee', 'reviewer']);
/** Git's longest ref name GitLab takes. */
const BRANCH_MAX_LENGTH = 255;

function chipsOf(f: MrFilters): FilterChip<Changes>[] {
  const chips = TOKENS.flatMap((t) => {
    const value = f[t.type];
    return value ? [{ key: t.type, name: t.label, value, remove: { [t.type]: undefined } }] : [];
  });
  return f.search ? [...chips, { key: 'search', name: 'Search', value: f.search, remove: { search: undefined } }] : chips;
}

export function MergeRequestFilterBar({ fullPath, filters, onChange }: { fullPath: string; filters: MrFilters; onChange: (changes: Changes) => void }) {
  const state = useFilteredSearch<TokenType>();
  const { stage, trimmed, open } = state;
  const users = useUserSuggestions(trimmed, open && stage !== null && USER_TOKENS.has(stage));
  const branches = useBranchSuggestions(fullPath, trimmed, open && (stage === 'sourceBranch' || stage === 'targetBranch'));

  const values = ((): FilterOption<Changes>[] => {
    if (stage === null) return [];
    if (USER_TOKENS.has(stage)) return userOptions(users.data, trimmed, (username) => ({ [stage]: username }));
    // The exact name first, so typing a whole branch name and pressing Enter picks it.
    const names = (branches.data ?? []).map((b) => b.name);
    const ordered = [...names.filter((n) => n === trimmed), ...names.filter((n) => n !== trimmed)];
    const known = ordered.map<FilterOption<Changes>>((n) => ({
      key: `branch:${n}`,
      text: n,
      icon: <GitBranch aria-hidden className="size-4 text-slate-500" />,
      changes: { [stage]: n },
    }));
    const typed = trimmed && trimmed.length <= BRANCH_MAX_LENGTH && !names.includes(trimmed) ? [typedOption<Changes>(trimmed, { [stage]: trimmed })] : [];
    return [...known, ...typed];
  })();
  const valuesHint = stage !== null && USER_TOKENS.has(stage) ? userHint(users.isFetching) : branches.isFetching ? 'Loading branches…' : 'Type a branch name';

  return (
    <FilteredSearch
      state={state}
      inputId="merge-request-filter-input"
      label="Search or filter merge requests"
      tokens={TOKENS}
      taken={(t) => filters[t] !== undefined}
      values={values}
      valuesHint={valuesHint}
      search={{ detail: 'in titles and descriptions', changes: (search) => ({ search }) }}
      chips={chipsOf(filters)}
      onChange={onChange}
    />
  );
}
