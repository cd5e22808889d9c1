// A project's merge request list as it lives in the URL, in the names GitLab's list writes
// (app/assets/javascripts/issues/list/constants.js filtersMap): `state=`, `author_username=`,
// `assignee_username[]=`, `reviewer_username=`, `source_branches[]=`, `target_branches[]=`, `search=`, plus
// `sort` and `page`. The plain forms GitLab also reads (`assignee_username=`, `source_branch=`,
// `target_branch=`) are read too. Parsing keeps only values the API accepts; `canonicalMrQuery` writes them
// back, so an address with unknown parameters or bad values is replaced by its normal form.
import { USERNAME } from './usernames';

export type MrStateFilter = 'opened' | 'merged' | 'closed' | 'all';

/** The state tabs, GitLab's: Open is the default. */
export const MR_STATES: { value: MrStateFilter; label: string }[] = [
  { value: 'opened', label: 'Open' },
  { value: 'merged', label: 'Merged' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];

export const MR_SORTS = [
  { value: 'created_desc', label: 'Created date, newest first', orderBy: 'created_at', sort: 'desc' },
  { value: 'created_asc', label: 'Created date, oldest first', orderBy: 'created_at', sort: 'asc' },
  { value: 'updated_desc', label: 'Updated date, newest first', orderBy: 'updated_at', sort: 'desc' },
  { value: 'title_asc', label: 'Title, A to Z', orderBy: 'title', sort: 'asc' },
] as const;
export type MrSort = (typeof MR_SORTS)[number]['value'];
const DEFAULT_SORT: MrSort = 'created_desc';

export interface MrFilters {
  state: MrStateFilter;
  /** Usernames: the author, one of the assignees, one of the reviewers. */
  author?: string;
  assignee?: string;
  reviewer?: string;
  sourceBranch?: string;
  targetBranch?: string;
  /** Free text, searched in titles and descriptions. */
  search?: string;
  sort: MrSort;
  page: number;
}

type Params = { get(name: string): string | null; getAll(name: string): string[] };

/** A parameter in GitLab's array form (`x[]=`) or its plain form (`x=`), trimmed; undefined when blank. */
const value = (params: Params, ...names: string[]) => {
  for (const name of names) {
    const v = (params.getAll(`${name}[]`)[0] ?? params.get(name))?.trim();
    if (v) return v;
  }
  return undefined;
};
const username = (raw: string | undefined) => (raw && USERNAME.test(raw) ? raw : undefined);

export function parseMrFilters(params: Params): MrFilters {
  const state = params.get('state');
  const page = Number(params.get('page') ?? '1');
  return {
    state: MR_STATES.find((s) => s.value === state)?.value ?? 'opened',
    author: username(value(params, 'author_username')),
    assignee: username(value(params, 'assignee_username')),
    reviewer: username(value(params, 'reviewer_username')),
    sourceBranch: value(params, 'source_branches', 'source_branch'),
    targetBranch: value(params, 'target_branches', 'target_branch'),
    search: value(params, 'search'),
    sort: MR_SORTS.find((s) => s.value === params.get('sort'))?.value ?? DEFAULT_SORT,
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/** The one query string for these filters, in GitLab's form; defaults are left out. */
export function canonicalMrQuery(f: MrFilters): string {
  const q = new URLSearchParams();
  if (f.state !== 'opened') q.set('state', f.state);
  if (f.author) q.set('author_username', f.author);
  if (f.assignee) q.append('assignee_username[]', f.assignee);
  if (f.reviewer) q.set('reviewer_username', f.reviewer);
  if (f.sourceBranch) q.append('source_branches[]', f.sourceBranch);
  if (f.targetBranch) q.append('target_branches[]', f.targetBranch);
  if (f.search) q.set('search', f.search);
  if (f.sort !== DEFAULT_SORT) q.set('sort', f.sort);
  if (f.page > 1) q.set('page', String(f.page));
  return q.toString();
}

/** Applies changes to the current filters; any change but a page turn goes back to page 1. */
export function mrFiltersQuery(current: MrFilters, changes: Partial<MrFilters>): string {
  const filtered = Object.keys(changes).some((k) => k !== 'page');
  return canonicalMrQuery({ ...current, ...changes, page: changes.page ?? (filtered ? 1 : current.page) });
}

/** Every filter of the bar off (the state tab and the sort stay). */
export const NO_MR_FILTERS: Partial<MrFilters> = {
  author: undefined,
  assignee: undefined,
  reviewer: undefined,
  sourceBranch: undefined,
  targetBranch: undefined,
  search: undefined,
};

/** Filters that narrow the list (the state tab and the sort only pick or order). */
export const hasMrFilters = (f: MrFilters) => Object.keys(NO_MR_FILTERS).some((k) => f[k as keyof MrFilters] !== undefined);

/** GET /projects/:id/merge_requests's parameters for the bar's filters (no state, sort or page). */
export function mrFilterParams(f: MrFilters) {
  return {
    author_username: f.author,
    assignee_username: f.assignee,
    reviewer_username: f.reviewer,
    source_branch: f.sourceBranch,
    target_branch: f.targetBranch,
    search: f.search,
  };
}
