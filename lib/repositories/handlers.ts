// The repository API's endpoint bodies: commits and branches (route files wire them to paths).
import { apiError, ApiError, forbidden, notFound } from '../api/errors';
import { paginated, type RequestContext } from '../api/handler';
import { pageNumber, paginationShape } from '../api/pagination';
import { param } from '../api/params';
import type { Actor } from '../api/authenticate';
import { findProject, projectViewer } from '../namespaces/resolve';
import { projectWebUrl } from '../namespaces/entity';
import { AccessLevel } from '../namespaces/access';
import { canReadCode } from './policy';
import { commitEntity } from './entity';
import { countBranches, findCommit, listBranches, listCommits, resolveRef, storedMembership, type BranchRow } from './queries';

/** find_project! then authorize_read_code! (403). */
async function readableRepository(actor: Actor | null, id: string) {
  const project = await findProject(actor, id);
  const viewer = await projectViewer(actor, project);
  if (!canReadCode(viewer, project)) throw forbidden();
  return { project, viewer };
}

export const listCommitsParams = {
  ref_name: param.string(),
  since: param.dateTime(),
  until: param.dateTime(),
  author: param.string(),
  search: param.string(),
  path: param.string(),
  all: param.boolean(),
  with_stats: param.boolean(),
  first_parent: param.boolean(),
  order: param.string().values(['default', 'topo']),
  trailers: param.boolean(),
  page: pageNumber(),
  per_page: pageNumber(),
};

/** GitLab's verify_pagination_params!: page and per_page must be positive. */
function verifyPagination(ctx: RequestContext<typeof listCommitsParams>): void {
  const { page, per_page } = ctx.input;
  const errors: string[] = [];
  if (page !== undefined && page !== null && page < 1) errors.push('page does not have a valid value');
  if (per_page !== undefined && per_page !== null && per_page < 1) errors.push('per_page does not have a valid value');
  if (errors.length) throw new ApiError(400, { error: errors[0] });
}

type Marker = { __next: true };
const NEXT: Marker = { __next: true };

/**
 * GET /projects/:id/repository/commits. GitLab paginates this by hand without totals: no X-Total,
 * X-Total-Pages or rel="last"; X-Next-Page whenever the page came back full.
 */
export async function listCommitsHandler(ctx: RequestContext<typeof listCommitsParams>) {
  verifyPagination(ctx);
  const { project } = await readableRepository(ctx.actor, ctx.pathParams.id);
  const i = ctx.input;
  // GitLab (Gitaly) rejects refs that read as options or hold white space; unknown refs just list nothing.
  if (i.ref_name && (i.ref_name.startsWith('-') || /\s/.test(i.ref_name))) throw apiError(400, 'ref_name is invalid');
  const ref = i.ref_name || project.defaultBranch;
  const tip = ref ? await resolveRef(project.id, ref) : null;
  const membership = ref && tip ? await storedMembership(project.id, ref) : null;
  const page = await ctx.paginate<ReturnType<typeof commitEntity> | Marker>({
    fetch: async (offset, limit) => {
      if (!tip) return [];
      const want = limit - 1; // paginate asks for one extra row; GitLab only looks at a full page
      const rows = await listCommits(
        project.id,
        tip,
        { since: i.since ?? undefined, until: i.until ?? undefined, author: i.author ?? undefined, search: i.search ?? undefined },
        offset,
        want,
        membership,
      );
      const items = rows.map((c) => {
        const e = commitEntity(c, project);
        return i.trailers ? e : { ...e, trailers: {}, extended_trailers: {} };
      });
      return items.length === want ? [...items, NEXT] : items;
    },
  });
  return paginated(page);
}

export const showCommitParams = { stats: param.boolean() };

/** GET /projects/:id/repository/commits/:sha (full or unique short SHA, or a branch name). */
export async function showCommitHandler(ctx: RequestContext<typeof showCommitParams>) {
  const { project } = await readableRepository(ctx.actor, ctx.pathParams.id);
  const commit = await findCommit(project.id, ctx.pathParams.sha);
  if (!commit) throw notFound('Commit');
  return commitEntity(commit, project);
}

export const listBranchesParams = {
  search: param.string(),
  regex: param.string(),
  sort: param.string().values(['name_asc', 'updated_asc', 'updated_desc']),
  ...paginationShape,
};

export function branchEntity(b: BranchRow, project: { fullPath: string; defaultBranch: string | null }, level: number, admin: boolean) {
  const isDefault = b.name === project.defaultBranch;
  // New projects protect their default branch: Maintainers push, developers neither push nor merge.
  const canPush = admin || level >= (isDefault ? AccessLevel.MAINTAINER : AccessLevel.DEVELOPER);
  return {
    name: b.name,
    commit: commitEntity(b.commit, project),
    merged: b.merged,
    protected: isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: canPush,
    default: isDefault,
    web_url: `${projectWebUrl(project)}/-/tree/${b.name.split('/').map(encodeURIComponent).join('/')}`,
  };
}

/** GET /projects/:id/repository/branches */
export async function listBranchesHandler(ctx: RequestContext<typeof listBranchesParams>) {
  const { project, viewer } = await readableRepository(ctx.actor, ctx.pathParams.id);
  const search = ctx.input.search ?? undefined;
  const page = await ctx.paginate({
    fetch: (offset, limit) => listBranches(project.id, project.defaultBranch, search, offset, limit),
    count: () => countBranches(project.id, search),
  });
  return paginated(page, (b) => branchEntity(b, project, viewer.level, viewer.admin));
}

/** GET /projects/:id/repository/branches/:branch */
export async function showBranchHandler(ctx: RequestContext) {
  const { project, viewer } = await readableRepository(ctx.actor, ctx.pathParams.id);
  const name = ctx.pathParams.branch;
  const rows = await listBranches(project.id, project.defaultBranch, `^${name}$`, 0, 100);
  const row = rows.find((r) => r.name === name);
  if (!row) throw notFound('Branch');
  return branchEntity(row, project, viewer.level, viewer.admin);
}

/**
 * Whether a ref of a project the actor may read code of resolves (a branch, tag or commit), for the
 * dashboard's commits page, which GitLab answers 404 for a missing ref; null when the project is not
 * readable (the page then says so itself, as for any project it cannot show).
 */
export async function refResolves(actor: Actor | null, fullPath: string, ref: string): Promise<boolean | null> {
  try {
    const { project } = await readableRepository(actor, fullPath);
    return (await resolveRef(project.id, ref)) !== null;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 404)) return null;
    throw e;
  }
}
