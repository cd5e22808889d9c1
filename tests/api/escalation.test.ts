// The escalation rule as a property: starting from each role below Owner, reached through each access
// path, no sequence of two API calls raises the caller's own effective level on the project or group at
// stake (read back as root through GET /projects/:id/members/all/:user_id and the group's twin). The calls
// are every access-changing call of the permission table a member could aim at themselves: shares of the
// project or group with a group they own, adding or updating their own membership, subgroup creation and
// the share lock. A refused first call changes nothing (its pairs are the singles), so pairs are walked
// after each first call that succeeded. Deterministic: fixed starts, fixed calls, fixed order.
import { describe, expect, it } from 'vitest';
import { DEVELOPER, GUEST, MAINTAINER, OWNER, REPORTER } from '@/lib/openapi/permission-table';
import { rootToken, uniq } from '../support/api';
import { fetchApi } from '../support/policy-http';
import { needsServer } from '@/lib/db/test-server';
import { addMember, group, pool, project, shareGroup, shareProject, user, type FixtureUser } from '../support/policy-fixture';

type StartPath = 'direct' | 'inherited' | 'project-share' | 'group-share';
const START_PATHS: StartPath[] = ['direct', 'inherited', 'project-share', 'group-share'];
// Owners are left out: no level lies above theirs. Guests and Reporters can change no access on the
// project or group (every call below is refused to them, which the Developer start already shows), so the
// bounded walk starts at Developer and Maintainer.
const START_ROLES = [DEVELOPER, MAINTAINER];

interface Player {
  u: FixtureUser;
  /** A top-level group the player created (and so owns). */
  own: number;
  /** The group the share paths invite (the player is a member at the start role). */
  invited: number;
}

interface Stake {
  group: number;
  project: number;
}

interface Call {
  name: string;
  send(p: Player, s: Stake, role: number): { method: string; path: string; json?: unknown };
}

const CALLS: Call[] = [
  {
    name: 'share project with own group as Owner',
    send: (p, s) => ({ method: 'POST', path: `/projects/${s.project}/share`, json: { group_id: p.own, group_access: OWNER } }),
  },
  {
    name: 'share project with own group one level up',
    send: (p, s, r) => ({ method: 'POST', path: `/projects/${s.project}/share`, json: { group_id: p.own, group_access: up(r) } }),
  },
  {
    name: 'add self to project as Owner',
    send: (p, s) => ({ method: 'POST', path: `/projects/${s.project}/members`, json: { user_id: p.u.id, access_level: OWNER } }),
  },
  {
    name: 'update own project membership to Owner',
    send: (p, s) => ({ method: 'PUT', path: `/projects/${s.project}/members/${p.u.id}`, json: { access_level: OWNER } }),
  },
  {
    name: 'update own project membership one level up',
    send: (p, s, r) => ({ method: 'PUT', path: `/projects/${s.project}/members/${p.u.id}`, json: { access_level: up(r) } }),
  },
  {
    name: 'share group with own group as Owner',
    send: (p, s) => ({ method: 'POST', path: `/groups/${s.group}/share`, json: { group_id: p.own, group_access: OWNER } }),
  },
  {
    name: 'add self to group as Owner',
    send: (p, s) => ({ method: 'POST', path: `/groups/${s.group}/members`, json: { user_id: p.u.id, access_level: OWNER } }),
  },
  {
    name: 'update own group membership to Owner',
    send: (p, s) => ({ method: 'PUT', path: `/groups/${s.group}/members/${p.u.id}`, json: { access_level: OWNER } }),
  },
  { name: 'create a subgroup', send: (p, s) => ({ method: 'POST', path: '/groups', json: { name: 'esc', path: uniq('esc'), parent_id: s.group } }) },
  { name: 'lift the share lock', send: (p, s) => ({ method: 'PUT', path: `/groups/${s.group}`, json: { share_with_group_lock: false } }) },
  { name: 'make the project public', send: (p, s) => ({ method: 'PUT', path: `/projects/${s.project}`, json: { visibility: 'public' } }) },
  {
    name: 'invite the invited group into the project as Owner',
    send: (p, s) => ({ method: 'POST', path: `/projects/${s.project}/share`, json: { group_id: p.invited, group_access: OWNER } }),
  },
];

const up = (r: number) => (r === GUEST ? REPORTER : r === REPORTER ? DEVELOPER : r === DEVELOPER ? MAINTAINER : OWNER);

/** A fresh group and project the player reaches at `role` through `path`. */
async function stake(p: Player, path: StartPath, role: number): Promise<Stake> {
  const g = await group('esc');
  const pr = await project('esc', g.id);
  if (path === 'direct') await addMember('projects', pr.id, p.u.id, role);
  if (path === 'inherited') await addMember('groups', g.id, p.u.id, role);
  if (path === 'project-share') await shareProject(pr.id, p.invited, OWNER);
  if (path === 'group-share') await shareGroup(g.id, p.invited, OWNER);
  return { group: g.id, project: pr.id };
}

async function levelOn(kind: 'projects' | 'groups', id: number, userId: number): Promise<number> {
  const res = await fetchApi('GET', `/${kind}/${id}/members/all/${userId}`, { token: rootToken() });
  if (res.status === 404) return 0;
  if (res.status !== 200) throw new Error(`level read: ${res.status} ${res.text}`);
  return res.body.access_level;
}

const levels = async (p: Player, s: Stake) => ({ project: await levelOn('projects', s.project, p.u.id), group: await levelOn('groups', s.group, p.u.id) });

async function send(p: Player, s: Stake, role: number, c: Call) {
  const r = c.send(p, s, role);
  return fetchApi(r.method, r.path, { token: p.u.api, json: r.json });
}

describe(
  '[ESCALATION] no two calls raise a member above the level they hold',
  needsServer(
    "the rules do not depend on the database engine, and on the single-session embedded database its 120 sequences takes minutes of CI's 90-minute budget; the PostgreSQL run runs them",
  ),
  () => {
    it('every start (role x access path) x every ordered pair of access-changing calls', async () => {
      const starts = START_PATHS.flatMap((path) => START_ROLES.map((role) => ({ path, role })));
      const violations: string[] = [];
      const serverErrors: string[] = [];
      let sequences = 0;

      await pool(starts, 4, async ({ path, role }) => {
        const u = await user();
        const ownRes = await fetchApi('POST', '/groups', { token: u.api, json: { name: 'esc-own', path: uniq('esc-own'), visibility: 'private' } });
        expect(ownRes.status, ownRes.text).toBe(201);
        const invited = await group('esc-inv');
        await addMember('groups', invited.id, u.id, role);
        const p: Player = { u, own: ownRes.body.id, invited: invited.id };

        // The start's levels, read the same way the check reads them afterwards.
        let s = await stake(p, path, role);
        const start = await levels(p, s);
        expect(start.project, `${path}/${role}: start level on the project`).toBe(role);
        let pristine = true;

        const check = async (label: string, st: Stake) => {
          sequences++;
          const now = await levels(p, st);
          if (now.project > start.project || now.group > start.group) {
            violations.push(`${path}/${role}: ${label} -> project ${start.project}->${now.project}, group ${start.group}->${now.group}`);
          }
        };
        const note = (label: string, status: number, text: string) => {
          if (status >= 500) serverErrors.push(`${path}/${role}: ${label}: ${status} ${text.slice(0, 120)}`);
        };

        for (const first of CALLS) {
          if (!pristine) s = await stake(p, path, role);
          const a = await send(p, s, role, first);
          note(first.name, a.status, a.text);
          pristine = a.status >= 400;
          await check(first.name, s);
          if (pristine) continue;
          for (const second of CALLS) {
            const s2 = await stake(p, path, role);
            const a1 = await send(p, s2, role, first);
            const a2 = await send(p, s2, role, second);
            note(`${first.name}; ${second.name}`, a2.status, a2.text);
            if (a1.status >= 400) continue;
            await check(`${first.name}; then ${second.name}`, s2);
          }
        }
      });

      console.log(`escalation property: ${starts.length} starts, ${CALLS.length} calls, ${sequences} sequences checked, ${violations.length} violations`);
      for (const v of violations) console.log(`  ${v}`);
      expect({ violations, serverErrors }).toEqual({ violations: [], serverErrors: [] });
    }, 600_000);
  },
);
