// The platform demo seed, run in-process against the test run's database (twice: it must be idempotent),
// then checked through the real API and the stored password digests.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { inProcessDatabase } from '../support/in-process-db';
import { createToken } from '../support/users';

const database = inProcessDatabase();

let seed: typeof import('../../lib/seed/platform');

beforeAll(async () => {
  seed = await import('../../lib/seed/platform');
});

describe('[NAMESPACES] platform demo seed', () => {
  it('creates users at every level, a 3-deep group tree and projects, and is idempotent', { timeout: 120_000 }, async () => {
    const first = await seed.seedPlatformDemo();
    // Only the demo's own rows: other test files write to the same database meanwhile.
    const counts = async () => {
      const db = database.db();
      const groupIds = Object.values(first.groups);
      const projectIds = Object.values(first.projects);
      return [
        await db.user.count({ where: { email: { endsWith: '.example' }, username: { in: Object.keys(first.users) } } }),
        await db.namespace.count({ where: { OR: [{ fullPath: { startsWith: 'acme' } }, { owner: { username: { in: Object.keys(first.users) } } }] } }),
        await db.project.count({ where: { fullPath: { in: Object.values(seed.demoProjectPaths) } } }),
        await db.groupMember.count({ where: { groupId: { in: groupIds } } }),
        await db.projectMember.count({ where: { projectId: { in: projectIds } } }),
        await db.projectGroupLink.count({ where: { projectId: { in: projectIds } } }),
      ];
    };
    const before = await counts();
    const second = await seed.seedPlatformDemo();
    expect(second).toEqual(first);
    expect(await counts()).toEqual(before);

    const { verifyPassword } = await import('../../lib/auth/password');
    const users = await database.db().user.findMany({ where: { id: { in: Object.values(first.users) } } });
    expect(users).toHaveLength(7);
    for (const u of users) expect(await verifyPassword(u.passwordDigest, seed.DEMO_PASSWORD), u.username).toBe(true);
    expect(users.find((u) => u.username === 'bob.blocked')?.state).toBe('blocked');
    expect(users.find((u) => u.username === 'ada.admin')?.admin).toBe(true);

    const ids = await seed.platformDemoIds();
    expect(ids.projects).toEqual(first.projects);

    // Through the API: the tree, inheritance (Rita: Reporter on acme, Maintainer on acme/platform/ci).
    const ci = await api('GET', `/groups/${encodeURIComponent('acme/platform/ci')}`, { token: rootToken() });
    expect(ci.status).toBe(200);
    expect(ci.body).toMatchObject({ full_name: 'Acme / Platform / CI', visibility: 'private' });
    expect(ci.body.projects.map((p: any) => p.path_with_namespace).sort()).toEqual(
      [seed.demoProjectPaths.pipelineLibrary, seed.demoProjectPaths.runnerFleet].sort(),
    );
    // acme's General Settings page has choices to show: settings away from GitLab's defaults.
    const acme = await api('GET', '/groups/acme', { token: rootToken(), query: { with_projects: false } });
    expect(acme.body).toMatchObject({
      project_creation_level: 'maintainer',
      subgroup_creation_level: 'owner',
      prevent_sharing_groups_outside_hierarchy: true,
      default_branch: 'main',
      default_branch_protection: 4,
    });
    const fleet = await api('GET', `/projects/${first.projects.runnerFleet}/members/all`, { token: rootToken(), query: { per_page: 100 } });
    const levels = Object.fromEntries(fleet.body.map((m: any) => [m.username, m.access_level]));
    expect(levels).toMatchObject({ 'alice.owner': 50, 'mark.maintainer': 40, 'dana.developer': 30, 'rita.reporter': 40, 'gus.guest': 10 });
    const personal = await api('GET', `/projects/${encodeURIComponent(seed.demoProjectPaths.dotfiles)}`, { token: rootToken() });
    expect(personal.body.namespace).toMatchObject({ kind: 'user', full_path: 'dana.developer' });
    // acme/web shows the group runner settings: instance runners off but overridable, and its website overriding.
    const web = await api('GET', `/groups/${encodeURIComponent('acme/web')}`, { token: rootToken() });
    expect(web.body.shared_runners_setting).toBe('disabled_and_overridable');
    expect(web.body.projects[0]).toMatchObject({ path_with_namespace: seed.demoProjectPaths.website, shared_runners_enabled: true });
    expect(ci.body.shared_runners_setting).toBe('enabled');
    // acme/platform/ci is shared into the website as Developer: Rita (Maintainer in CI, Reporter on acme) is
    // capped at Developer there, which beats her inherited Reporter.
    const website = await api('GET', `/projects/${first.projects.website}`, { token: rootToken() });
    expect(website.body.shared_with_groups).toEqual([
      { group_id: first.groups['acme/platform/ci'], group_name: 'CI', group_full_path: 'acme/platform/ci', group_access_level: 30, expires_at: null },
    ]);
    // Asked as Alice, a member: an admin who is not one would not see the private CI group's members (GitLab).
    const alice = await createToken(first.users['alice.owner'], ['api']);
    const siteMembers = await api('GET', `/projects/${first.projects.website}/members/all`, { token: alice, query: { per_page: 100 } });
    expect(Object.fromEntries(siteMembers.body.map((m: any) => [m.username, m.access_level]))).toMatchObject({
      'alice.owner': 50,
      'dana.developer': 30,
      'rita.reporter': 30,
    });
    // The runner fleet project carries project settings, which its General Settings page shows.
    const fleetProject = await api('GET', `/projects/${first.projects.runnerFleet}`, { token: rootToken() });
    expect(fleetProject.body).toMatchObject({
      topics: ['runners', 'autoscaling'],
      wiki_access_level: 'disabled',
      merge_method: 'rebase_merge',
      squash_option: 'default_on',
      only_allow_merge_if_pipeline_succeeds: true,
      ci_config_path: '.gitlab/ci/main.yml',
    });
  });

  it('the demo repositories keep merge requests with context commits, one building on a merged one, and history to search', { timeout: 120_000 }, async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'runway-demo-repos-'));
    const previous = process.env.RUNWAY_DATA_DIR;
    process.env.RUNWAY_DATA_DIR = dataDir;
    try {
      await seed.seedPlatformDemo();
      const { seedRepositoriesDemo } = await import('../../lib/seed/repositories');
      await seedRepositoriesDemo();
      const project = encodeURIComponent(seed.demoProjectPaths.api);
      const mrs = await api('GET', `/projects/${project}/merge_requests`, { token: rootToken(), query: { state: 'all', per_page: 100 } });
      const merged = mrs.body.find((m: any) => m.state === 'merged');
      const building = mrs.body.find((m: any) => m.title === 'Add OAuth login');
      expect(merged).toBeDefined();
      const context = await api('GET', `/projects/${project}/merge_requests/${building.iid}/context_commits`, { token: rootToken() });
      // It builds on the merged hotfix: its context commits include the merged MR's commit.
      expect(context.body.map((c: any) => c.id)).toContain(merged.sha);
      expect(context.body.length).toBeGreaterThanOrEqual(2);
      // Months of history on main, searchable by title and author through the stored membership.
      const page = await api('GET', `/projects/${project}/repository/commits`, { token: rootToken(), query: { ref_name: 'main', per_page: 100 } });
      expect(page.body.length).toBeGreaterThanOrEqual(80);
      const found = await api('GET', `/projects/${project}/repository/commits`, {
        token: rootToken(),
        query: { ref_name: 'main', search: 'rate limiter', author: 'mark', per_page: 100 },
      });
      expect(found.body.length).toBeGreaterThan(0);
      for (const c of found.body) {
        expect(c.message.toLowerCase()).toContain('rate limiter');
        expect(c.author_name).toBe('Mark Mayer');
      }
      const [main] = await database.db().$queryRaw<{ stored: boolean }[]>`
        SELECT b.membership_sha = b.commit_sha AS stored FROM branches b JOIN projects p ON p.id = b.project_id
         WHERE p.id = ${(await seed.platformDemoIds()).projects.api} AND b.name = 'main'`;
      expect(main.stored).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.RUNWAY_DATA_DIR;
      else process.env.RUNWAY_DATA_DIR = previous;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
