// Demo users, groups, projects and memberships (part of `RUNWAY_DEMO=true` / `runway seed`). Idempotent:
// everything is looked up by username / full path first, so running it twice changes nothing.
//
// Every demo user signs in with the password "runway-demo-password" (DEMO_PASSWORD below). The group tree
// is acme -> acme/platform -> acme/platform/ci, plus acme/web; memberships sit at different levels so the
// dashboard shows inherited access (e.g. Rita is Reporter on all of acme, Dana Developer only in ci), and
// acme/platform/ci is shared into acme/web/website.
import { applySettings, defaultSettings } from '../namespaces/project-settings';
import { db, type Prisma } from '../db/client';
import { AccessLevel } from '../namespaces/access';
import { insertUser } from '../users/service';
import { lockDemoSeed } from './lock';

/** The one password of every demo user (the README and docs/dashboard.md name it). */
export const DEMO_PASSWORD = 'runway-demo-password';

type Vis = 'private' | 'internal' | 'public';

/** The demo users; the start message lists those who can sign in. */
export const DEMO_USERS = [
  { username: 'alice.owner', name: 'Alice Owens', email: 'alice@acme.example', jobTitle: 'Head of Engineering' },
  { username: 'mark.maintainer', name: 'Mark Mayer', email: 'mark@acme.example', jobTitle: 'Platform Lead' },
  { username: 'dana.developer', name: 'Dana Diaz', email: 'dana@acme.example', jobTitle: 'CI Engineer' },
  { username: 'rita.reporter', name: 'Rita Reyes', email: 'rita@acme.example', jobTitle: 'Release Manager' },
  { username: 'gus.guest', name: 'Gus Gallagher', email: 'gus@partner.example', jobTitle: 'Contractor' },
  { username: 'ada.admin', name: 'Ada Adams', email: 'ada@acme.example', jobTitle: 'Site Reliability', admin: true },
  { username: 'bob.blocked', name: 'Bob Blake', email: 'bob@acme.example', jobTitle: 'Former Employee', blocked: true },
] as const;

export type DemoUsername = (typeof DEMO_USERS)[number]['username'];

// acme/web shows a group's runner settings: instance runners off for the group, overridable, and its
// website project turning them back on for itself.
// Acme's settings are what its General Settings page (/groups/acme/-/edit) shows off: a few choices away from
// GitLab's defaults in each section, so the demo's page is not a column of untouched controls.
const GROUPS: {
  path: string;
  name: string;
  visibility: Vis;
  description: string;
  instanceRunners?: 'disabled_and_overridable';
  settings?: Partial<Prisma.NamespaceUncheckedCreateInput>;
}[] = [
  {
    path: 'acme',
    name: 'Acme',
    visibility: 'internal',
    description: 'Acme Corporation engineering',
    settings: {
      projectCreationLevel: 'maintainer',
      subgroupCreationLevel: 'owner',
      preventSharingGroupsOutsideHierarchy: true,
      mentionsDisabled: false,
      defaultBranch: 'main',
      // Gitlab::Access::BranchProtection "fully protected after initial push" (level 4).
      defaultBranchProtectionDefaults: {
        allowed_to_push: [{ access_level: 40 }],
        allow_force_push: false,
        allowed_to_merge: [{ access_level: 40 }],
        developer_can_initial_push: true,
      },
    },
  },
  { path: 'acme/platform', name: 'Platform', visibility: 'internal', description: 'Shared platform services' },
  { path: 'acme/platform/ci', name: 'CI', visibility: 'private', description: 'Build infrastructure and runners' },
  { path: 'acme/web', name: 'Web', visibility: 'public', description: 'Public websites', instanceRunners: 'disabled_and_overridable' },
];

/** The demo projects by role; later seeds (repositories, runners) look them up with these paths. */
export const demoProjectPaths = {
  api: 'acme/platform/api-gateway',
  runnerFleet: 'acme/platform/ci/runner-fleet',
  pipelineLibrary: 'acme/platform/ci/pipeline-library',
  website: 'acme/web/website',
  dotfiles: 'dana.developer/dotfiles',
} as const;
export type DemoProjectKey = keyof typeof demoProjectPaths;

export const demoGroupPaths = GROUPS.map((g) => g.path);

const PROJECTS: {
  key: DemoProjectKey;
  name: string;
  visibility: Vis;
  description: string;
  creator: DemoUsername;
  /** GitLab's project settings parameters (lib/namespaces/project-settings.ts), so General Settings shows some set. */
  settings?: Record<string, unknown>;
}[] = [
  { key: 'api', name: 'API Gateway', visibility: 'internal', description: 'Edge routing and authentication for Acme services', creator: 'mark.maintainer' },
  {
    key: 'runnerFleet',
    name: 'Runner Fleet',
    visibility: 'private',
    description: 'Autoscaling configuration for the CI runner fleet',
    creator: 'mark.maintainer',
    settings: {
      topics: ['runners', 'autoscaling'],
      wiki_access_level: 'disabled',
      snippets_access_level: 'private',
      merge_method: 'rebase_merge',
      squash_option: 'default_on',
      only_allow_merge_if_pipeline_succeeds: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
      ci_config_path: '.gitlab/ci/main.yml',
    },
  },
  { key: 'pipelineLibrary', name: 'Pipeline Library', visibility: 'private', description: 'Reusable CI/CD templates', creator: 'dana.developer' },
  { key: 'website', name: 'Website', visibility: 'public', description: 'acme.example marketing site', creator: 'alice.owner' },
  { key: 'dotfiles', name: 'dotfiles', visibility: 'private', description: "Dana's shell and editor configuration", creator: 'dana.developer' },
];

// [group path, username, level]: inheritance is visible (e.g. Rita reads acme/platform/ci through acme).
const GROUP_MEMBERS: [string, DemoUsername, number][] = [
  ['acme', 'alice.owner', AccessLevel.OWNER],
  ['acme', 'rita.reporter', AccessLevel.REPORTER],
  ['acme', 'bob.blocked', AccessLevel.DEVELOPER],
  ['acme/platform', 'mark.maintainer', AccessLevel.MAINTAINER],
  ['acme/platform/ci', 'dana.developer', AccessLevel.DEVELOPER],
  ['acme/platform/ci', 'rita.reporter', AccessLevel.MAINTAINER], // higher in the subgroup: the highest wins
];

const PROJECT_MEMBERS: [DemoProjectKey, DemoUsername, number][] = [
  ['runnerFleet', 'gus.guest', AccessLevel.GUEST],
  ['api', 'dana.developer', AccessLevel.DEVELOPER],
];

// [project, invited group, group_access]: a group shared into a project (issue 24). The CI group's members
// reach the public website as Developers at most: Dana stays Developer, Rita (Maintainer in CI) is capped at
// Developer, above her Reporter role inherited from acme. Maintainers see the share on General Settings.
const PROJECT_SHARES: [DemoProjectKey, string, number][] = [['website', 'acme/platform/ci', AccessLevel.DEVELOPER]];

export interface PlatformDemo {
  users: Record<DemoUsername, number>;
  groups: Record<string, number>;
  projects: Record<DemoProjectKey, number>;
}

async function ensureUser(tx: Prisma.TransactionClient, u: (typeof DEMO_USERS)[number]): Promise<number> {
  const existing = await tx.user.findUnique({ where: { username: u.username }, select: { id: true } });
  if (existing) return existing.id;
  const user = await insertUser(tx, {
    username: u.username,
    name: u.name,
    email: u.email,
    password: DEMO_PASSWORD,
    admin: 'admin' in u ? u.admin : false,
    jobTitle: u.jobTitle,
    organization: 'Acme',
    publicEmail: u.email,
  });
  if ('blocked' in u && u.blocked) await tx.user.update({ where: { id: user.id }, data: { state: 'blocked' } });
  return user.id;
}

async function ensureGroup(tx: Prisma.TransactionClient, g: (typeof GROUPS)[number], ownerId: number): Promise<number> {
  const existing = await tx.namespace.findUnique({ where: { fullPath: g.path }, select: { id: true } });
  if (existing) return existing.id;
  const parentPath = g.path.includes('/') ? g.path.slice(0, g.path.lastIndexOf('/')) : null;
  const parent = parentPath ? await tx.namespace.findUniqueOrThrow({ where: { fullPath: parentPath } }) : null;
  const ns = await tx.namespace.create({
    data: {
      kind: 'group',
      name: g.name,
      path: g.path.split('/').pop()!,
      fullPath: g.path,
      parentId: parent?.id ?? null,
      visibility: g.visibility,
      description: g.description,
      sharedRunnersEnabled: !g.instanceRunners,
      allowDescendantsOverrideDisabledSharedRunners: g.instanceRunners === 'disabled_and_overridable',
      ...g.settings,
    },
  });
  await tx.namespace.update({ where: { id: ns.id }, data: { traversalIds: [...(parent?.traversalIds ?? []), ns.id] } });
  if (!parent) await tx.groupMember.create({ data: { groupId: ns.id, userId: ownerId, accessLevel: AccessLevel.OWNER, createdById: ownerId } });
  return ns.id;
}

async function ensureProject(tx: Prisma.TransactionClient, p: (typeof PROJECTS)[number], creatorId: number): Promise<number> {
  const fullPath = demoProjectPaths[p.key];
  const existing = await tx.project.findUnique({ where: { fullPath }, select: { id: true } });
  if (existing) return existing.id;
  const nsPath = fullPath.slice(0, fullPath.lastIndexOf('/'));
  const ns = await tx.namespace.findUniqueOrThrow({ where: { fullPath: nsPath } });
  const project = await tx.project.create({
    data: {
      name: p.name,
      path: fullPath.split('/').pop()!,
      namespaceId: ns.id,
      fullPath,
      description: p.description,
      visibility: p.visibility,
      defaultBranch: 'main',
      creatorId,
      settings: applySettings(defaultSettings(p.visibility), p.settings ?? {}, p.visibility).next as unknown as Prisma.InputJsonObject,
    },
  });
  if (ns.kind === 'user' && ns.ownerId) {
    await tx.projectMember.create({ data: { projectId: project.id, userId: ns.ownerId, accessLevel: AccessLevel.OWNER, createdById: creatorId } });
  }
  return project.id;
}

export async function seedPlatformDemo(): Promise<PlatformDemo> {
  return db().$transaction(
    async (tx) => {
      await lockDemoSeed(tx);
      const users = {} as Record<DemoUsername, number>;
      for (const u of DEMO_USERS) users[u.username] = await ensureUser(tx, u);
      const groups: Record<string, number> = {};
      for (const g of GROUPS) groups[g.path] = await ensureGroup(tx, g, users['alice.owner']);
      const projects = {} as Record<DemoProjectKey, number>;
      for (const p of PROJECTS) projects[p.key] = await ensureProject(tx, p, users[p.creator]);
      for (const [path, username, level] of GROUP_MEMBERS) {
        await tx.groupMember.upsert({
          where: { groupId_userId: { groupId: groups[path], userId: users[username] } },
          create: { groupId: groups[path], userId: users[username], accessLevel: level, createdById: users['alice.owner'] },
          update: {},
        });
      }
      for (const [key, username, level] of PROJECT_MEMBERS) {
        await tx.projectMember.upsert({
          where: { projectId_userId: { projectId: projects[key], userId: users[username] } },
          create: { projectId: projects[key], userId: users[username], accessLevel: level, createdById: users['mark.maintainer'] },
          update: {},
        });
      }
      for (const [key, groupPath, groupAccess] of PROJECT_SHARES) {
        await tx.projectGroupLink.upsert({
          where: { projectId_groupId: { projectId: projects[key], groupId: groups[groupPath] } },
          create: { projectId: projects[key], groupId: groups[groupPath], groupAccess },
          update: {},
        });
      }
      return { users, groups, projects };
    },
    { timeout: 60_000 },
  );
}

/** The demo ids, for seeds that run later (null entries mean the platform seed has not run). */
export async function platformDemoIds(): Promise<{ projects: Partial<Record<DemoProjectKey, number>>; users: Partial<Record<DemoUsername, number>> }> {
  const [projects, users] = await Promise.all([
    db().project.findMany({ where: { fullPath: { in: Object.values(demoProjectPaths) } }, select: { id: true, fullPath: true } }),
    db().user.findMany({ where: { username: { in: DEMO_USERS.map((u) => u.username) } }, select: { id: true, username: true } }),
  ]);
  const byPath = new Map(projects.map((p) => [p.fullPath, p.id]));
  return {
    projects: Object.fromEntries(Object.entries(demoProjectPaths).flatMap(([k, path]) => (byPath.has(path) ? [[k, byPath.get(path)!]] : []))),
    users: Object.fromEntries(users.map((u) => [u.username, u.id])),
  };
}
