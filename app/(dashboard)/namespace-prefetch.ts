// The first view of a group's or project's list pages, read on the server for the first HTML (see
// page-prefetch.ts): what each page's hooks read before its first rows show, in the order they need it.
import { GET as getGroup } from '@/app/api/v4/groups/[id]/route';
import { GET as getGroupMember } from '@/app/api/v4/groups/[id]/members/all/[user_id]/route';
import { GET as listGroupRunners } from '@/app/api/v4/groups/[id]/runners/route';
import { GET as countGroupRunners } from '@/app/api/v4/groups/[id]/runners/counts/route';
import { GET as getProject } from '@/app/api/v4/projects/[id]/route';
import { GET as getProjectMember } from '@/app/api/v4/projects/[id]/members/all/[user_id]/route';
import { GET as listProjectRunners } from '@/app/api/v4/projects/[id]/runners/route';
import { GET as listAssignableRunners } from '@/app/api/v4/projects/[id]/runners/assignable/route';
import { GET as listMergeRequests } from '@/app/api/v4/projects/[id]/merge_requests/route';
import { effectiveLevel, MAINTAINER } from '@/lib/client/access-levels';
import { parseMrFilters, MR_STATES } from '@/lib/client/merge-request-filters';
import { mergeRequestCountRead, mergeRequestListRead } from '@/lib/client/merge-request-query';
import { groupRead, memberLevelRead, projectRead, projectRunnersRead, PROJECT_RUNNER_LISTS, type ProjectRunnerList } from '@/lib/client/namespace-query';
import type { Group, ProjectWithAccess } from '@/lib/client/types';
import { dashboardSession } from '@/lib/sessions/next-auth';
import { PagePrefetch, urlParams, type SearchParams } from './page-prefetch';
import { prefetchRunnerList } from './runner-list-prefetch';

/** The signed-in viewer (the layout sends everyone else to sign in). */
async function viewer() {
  const session = await dashboardSession();
  return session ? { id: session.user.id, admin: session.user.admin } : null;
}

/** /groups/<path>/-/runners: the group (by path, as the page asks), the viewer's level, then the group's list by id. */
export async function prefetchGroupRunners(fullPath: string, searchParams: SearchParams): Promise<PagePrefetch> {
  const into = new PagePrefetch();
  const who = await viewer();
  if (!who) return into;
  const [group, level] = await Promise.all([
    into.json<Group>(getGroup, groupRead(fullPath), { id: fullPath }),
    who.admin ? null : into.memberLevel(getGroupMember, memberLevelRead('group', fullPath, who.id), { id: fullPath, user_id: String(who.id) }),
  ]);
  // The page shows the list to Maintainers and up (and administrators); the API decides the rest.
  if (!group || (!who.admin && (level ?? 0) < MAINTAINER)) return into;
  const params = { id: String(group.id) };
  return prefetchRunnerList({ kind: 'group', groupId: group.id }, searchParams, { list: listGroupRunners, counts: countGroupRunners, params }, into);
}

/** The project and, for non-admins, the viewer's effective level (ProjectLoader waits for both; the page takes the higher of the two levels it has). */
async function projectWithLevel(into: PagePrefetch, fullPath: string, who: { id: number; admin: boolean }) {
  const [project, member] = await Promise.all([
    into.json<ProjectWithAccess>(getProject, projectRead(fullPath), { id: fullPath }),
    who.admin ? null : into.memberLevel(getProjectMember, memberLevelRead('project', fullPath, who.id), { id: fullPath, user_id: String(who.id) }),
  ]);
  return project && { project, level: Math.max(member ?? 0, effectiveLevel(project.permissions)) };
}

const RUNNER_LIST_HANDLERS: Record<ProjectRunnerList, typeof listProjectRunners> = {
  assigned: listProjectRunners,
  available: listAssignableRunners,
  group: listProjectRunners,
  instance: listProjectRunners,
};

/**
 * /<project>/-/settings/ci_cd: the Runners section is open on its first view (no collapsed section): the tab
 * in the URL (Assigned by default) at its page, and page 1 of all four lists, whose totals are the tabs'
 * counts; the Instance tab also shows the group's instance-runner setting.
 */
export async function prefetchProjectCiCd(fullPath: string, searchParams: SearchParams): Promise<PagePrefetch> {
  const into = new PagePrefetch();
  const who = await viewer();
  if (!who) return into;
  const loaded = await projectWithLevel(into, fullPath, who);
  // The page shows the runners to Maintainers and up (and administrators); the others get its not-found.
  if (!loaded || (!who.admin && loaded.level < MAINTAINER)) return into;
  const { project } = loaded;
  const url = urlParams(searchParams);
  const tab = PROJECT_RUNNER_LISTS.find((l) => l === url.get('tab')) ?? 'assigned';
  const page = Math.max(1, Number.parseInt(url.get(`${tab}_page`) ?? '1', 10) || 1);
  const params = { id: fullPath };
  const lists = PROJECT_RUNNER_LISTS.map((list) => into.page(RUNNER_LIST_HANDLERS[list], projectRunnersRead(fullPath, list, 1), params));
  if (page > 1) lists.push(into.page(RUNNER_LIST_HANDLERS[tab], projectRunnersRead(fullPath, tab, page), params));
  if (tab === 'instance' && project.namespace.kind === 'group') {
    const group = project.namespace.full_path;
    lists.push(into.json(getGroup, groupRead(group), { id: group }).then(() => undefined));
  }
  await Promise.all(lists);
  return into;
}

/** /<project>/-/merge_requests: the project, the URL's page of the list, and each state tab's count. */
export async function prefetchMergeRequests(fullPath: string, searchParams: SearchParams): Promise<PagePrefetch> {
  const into = new PagePrefetch();
  const filters = parseMrFilters(urlParams(searchParams));
  const params = { id: fullPath };
  await Promise.all([
    into.json(getProject, projectRead(fullPath), params),
    into.page(listMergeRequests, mergeRequestListRead(fullPath, filters), params),
    ...MR_STATES.map((s) => into.total(listMergeRequests, mergeRequestCountRead(fullPath, s.value, filters), params)),
  ]);
  return into;
}
