'use client';
// The runner list's filtered search (GitLab's filtered-search bar, components/ui/filtered-search.tsx): the
// tokens Status, Type, Paused, Tag, Version, Upgrade status, Creator and the owner ids, their values, and free
// text searched in descriptions.
import { FilteredSearch, matchesTyped, typedOption, useFilteredSearch, type FilterChip, type FilterOption, type FilterToken } from '../ui/filtered-search';
import { userHint, userOptions, useUserSuggestions } from '../users/user-suggestions';
import { RUNNER_TYPES, STATUS_FILTERS, TAG_MAX_LENGTH, UPGRADE_STATUS_FILTERS, VERSION_PREFIX, type RunnerFilters } from '@/lib/client/runner-filters';
import { StatusIcon, TypeIcon } from './runner-badges';
import { useRunnerTagSuggestions } from './use-runners';

type TokenType = 'status' | 'type' | 'paused' | 'tag' | 'version' | 'upgrade_status' | 'creator' | 'owner_group' | 'owner_project';
type Changes = Partial<RunnerFilters>;

const TOKENS: FilterToken<TokenType>[] = [
  { type: 'status', label: 'Status', hint: 'Online, offline, stale, never contacted' },
  { type: 'type', label: 'Type', hint: 'Instance, group or project' },
  { type: 'paused', label: 'Paused', hint: 'Yes or no' },
  { type: 'tag', label: 'Tag', hint: 'Runners with every chosen tag' },
  { type: 'version', label: 'Version', hint: 'A version prefix, such as 17.5' },
  { type: 'upgrade_status', label: 'Upgrade status', hint: 'Recommended, available, up to date' },
  { type: 'creator', label: 'Creator', hint: 'The user who created the runner' },
  { type: 'owner_group', label: 'Owner group ID', hint: 'Group runners of one group' },
  { type: 'owner_project', label: 'Owner project ID', hint: 'Project runners of one project' },
];
const GROUP_TOKENS = TOKENS.filter((t) => !t.type.startsWith('owner_'));

function chipsOf(f: RunnerFilters): FilterChip<Changes>[] {
  const chips: FilterChip<Changes>[] = [];
  if (f.status) chips.push({ key: 'status', name: 'Status', value: STATUS_FILTERS.find((s) => s.value === f.status)!.label, remove: { status: undefined } });
  if (f.type) chips.push({ key: 'type', name: 'Type', value: RUNNER_TYPES.find((t) => t.value === f.type)!.label, remove: { type: undefined } });
  if (f.paused !== undefined) chips.push({ key: 'paused', name: 'Paused', value: f.paused ? 'Yes' : 'No', remove: { paused: undefined } });
  for (const t of f.tags) chips.push({ key: `tag:${t}`, name: 'Tag', value: t, remove: { tags: f.tags.filter((x) => x !== t) } });
  if (f.versionPrefix) chips.push({ key: 'version', name: 'Version', value: f.versionPrefix, remove: { versionPrefix: undefined } });
  if (f.upgradeStatus) {
    const value = UPGRADE_STATUS_FILTERS.find((u) => u.value === f.upgradeStatus)!.label;
    chips.push({ key: 'upgrade_status', name: 'Upgrade status', value, remove: { upgradeStatus: undefined } });
  }
  if (f.creator) chips.push({ key: 'creator', name: 'Creator', value: f.creator, remove: { creator: undefined } });
  if (f.ownerGroupId) chips.push({ key: 'owner_group', name: 'Owner group ID', value: f.ownerGroupId, remove: { ownerGroupId: undefined } });
  if (f.ownerProjectId) chips.push({ key: 'owner_project', name: 'Owner project ID', value: f.ownerProjectId, remove: { ownerProjectId: undefined } });
  if (f.search) chips.push({ key: 'search', name: 'Search', value: f.search, remove: { search: undefined } });
  return chips;
}

export interface RunnerFilterBarProps {
  filters: RunnerFilters;
  onChange: (changes: Changes) => void;
  /** Group lists: no instance type, no owner filters. */
  group: boolean;
  /** Tag suggestions come from the instance's tags (admins only, as GitLab's admin list). */
  suggestTags: boolean;
}

export function RunnerFilterBar({ filters, onChange, group, suggestTags }: RunnerFilterBarProps) {
  const state = useFilteredSearch<TokenType>();
  const { stage, trimmed, open } = state;
  const tags = useRunnerTagSuggestions(trimmed, open && stage === 'tag' && suggestTags);
  const users = useUserSuggestions(trimmed, open && stage === 'creator');

  const taken = (t: TokenType) =>
    Boolean(
      (t === 'status' && filters.status) ||
      (t === 'type' && filters.type) ||
      (t === 'paused' && filters.paused !== undefined) ||
      (t === 'version' && filters.versionPrefix) ||
      (t === 'upgrade_status' && filters.upgradeStatus) ||
      (t === 'creator' && filters.creator) ||
      (t === 'owner_group' && filters.ownerGroupId) ||
      (t === 'owner_project' && filters.ownerProjectId),
    );

  const values = ((): FilterOption<Changes>[] => {
    switch (stage) {
      case null:
        return [];
      case 'status':
        return STATUS_FILTERS.filter((s) => matchesTyped(s.label, trimmed)).map((s) => ({
          key: s.value,
          text: s.label,
          icon: <StatusIcon status={s.value} className="size-4" />,
          changes: { status: s.value },
        }));
      case 'type':
        return RUNNER_TYPES.filter((t) => !(group && t.value === 'instance_type') && matchesTyped(t.label, trimmed)).map((t) => ({
          key: t.value,
          text: t.label,
          icon: <TypeIcon type={t.value} className="size-4" />,
          changes: { type: t.value },
        }));
      case 'paused':
        return [
          { key: 'true', text: 'Yes', changes: { paused: true } },
          { key: 'false', text: 'No', changes: { paused: false } },
        ].filter((o) => matchesTyped(o.text, trimmed));
      case 'tag': {
        const add = (t: string) => ({ tags: [...filters.tags.filter((x) => x !== t), t] });
        // The exact name first, so typing a whole tag and pressing Enter picks it.
        const names = (tags.data ?? []).map((t) => t.name).filter((n) => !filters.tags.includes(n));
        const ordered = [...names.filter((n) => n === trimmed), ...names.filter((n) => n !== trimmed)];
        const known = ordered.map<FilterOption<Changes>>((n) => ({ key: `tag:${n}`, text: n, changes: add(n) }));
        const typed = trimmed && trimmed.length <= TAG_MAX_LENGTH && !known.some((o) => o.text === trimmed) ? [typedOption(trimmed, add(trimmed))] : [];
        return [...typed, ...known];
      }
      case 'version':
        return trimmed && VERSION_PREFIX.test(trimmed) ? [typedOption(trimmed, { versionPrefix: trimmed })] : [];
      case 'upgrade_status':
        return UPGRADE_STATUS_FILTERS.filter((u) => matchesTyped(u.label, trimmed)).map((u) => ({
          key: u.value,
          text: u.label,
          changes: { upgradeStatus: u.value },
        }));
      case 'creator':
        return userOptions(users.data, trimmed, (creator) => ({ creator }));
      case 'owner_group':
      case 'owner_project':
        return /^[1-9]\d{0,9}$/.test(trimmed) ? [typedOption(trimmed, stage === 'owner_group' ? { ownerGroupId: trimmed } : { ownerProjectId: trimmed })] : [];
    }
  })();

  const valuesHint =
    stage === 'version'
      ? 'Type a version prefix, such as 17 or 17.5'
      : stage === 'owner_group' || stage === 'owner_project'
        ? 'Type an ID'
        : stage === 'tag'
          ? tags.isFetching
            ? 'Loading tags…'
            : 'Type a tag'
          : stage === 'creator'
            ? userHint(users.isFetching)
            : 'No matches';

  return (
    <FilteredSearch
      state={state}
      inputId="runner-filter-input"
      label="Search or filter runners"
      tokens={group ? GROUP_TOKENS : TOKENS}
      taken={taken}
      values={values}
      valuesHint={valuesHint}
      search={{ detail: 'in descriptions', changes: (search) => ({ search }) }}
      chips={chipsOf(filters)}
      onChange={onChange}
    />
  );
}
