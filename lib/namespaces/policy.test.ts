import { describe, expect, it } from 'vitest';
import {
  anonymousViewer,
  canAdministerGroup,
  canChangeProjectVisibility,
  canCreateProjectInGroup,
  canCreateSubgroup,
  canGrantLevel,
  canManageMembers,
  canReadGroup,
  canReadProject,
  canRemoveProject,
  canRenameProject,
  canUpdateProject,
  canAdminMembersOf,
  canRemoveMember,
  canUpdateMember,
  canChangeShareWithGroupLock,
  canRemoveProjectShare,
  canShareProjectAt,
  type Viewer,
} from './policy';

const ACTORS: Record<string, Viewer> = {
  anonymous: anonymousViewer,
  'non-member': { signedIn: true, admin: false, level: 0 },
  guest: { signedIn: true, admin: false, level: 10 },
  planner: { signedIn: true, admin: false, level: 15 },
  reporter: { signedIn: true, admin: false, level: 20 },
  developer: { signedIn: true, admin: false, level: 30 },
  maintainer: { signedIn: true, admin: false, level: 40 },
  owner: { signedIn: true, admin: false, level: 50 },
  admin: { signedIn: true, admin: true, level: 0 },
};

// Expected read access per visibility: [private, internal, public].
const READ: Record<string, [boolean, boolean, boolean]> = {
  anonymous: [false, false, true],
  'non-member': [false, true, true],
  guest: [true, true, true],
  planner: [true, true, true],
  reporter: [true, true, true],
  developer: [true, true, true],
  maintainer: [true, true, true],
  owner: [true, true, true],
  admin: [true, true, true],
};

describe('[NAMESPACES] policy matrix', () => {
  it('lets a project member inside a private group read the group, and nothing more', () => {
    const viewer: Viewer = { signedIn: true, admin: false, level: 0, readsProjectInside: true };
    expect(canReadGroup(viewer, { visibility: 'private' })).toBe(true);
    expect(canReadGroup({ ...anonymousViewer, readsProjectInside: true }, { visibility: 'private' })).toBe(false);
    expect(canCreateSubgroup(viewer)).toBe(false);
    expect(canManageMembers(viewer)).toBe(false);
  });

  for (const [name, viewer] of Object.entries(ACTORS)) {
    it(`${name}`, () => {
      (['private', 'internal', 'public'] as const).forEach((visibility, i) => {
        expect(canReadProject(viewer, { visibility }), `read project ${visibility}`).toBe(READ[name][i]);
        expect(canReadGroup(viewer, { visibility }), `read group ${visibility}`).toBe(READ[name][i]);
      });
      expect(canCreateProjectInGroup(viewer)).toBe(viewer.admin || viewer.level >= 30);
      expect(canCreateSubgroup(viewer)).toBe(viewer.admin || viewer.level >= 40);
      expect(canManageMembers(viewer)).toBe(viewer.admin || viewer.level >= 40);
      for (const level of [10, 15, 20, 30, 40, 50]) {
        const expected = viewer.admin || viewer.level === 50 || (viewer.level === 40 && level <= 40);
        expect(canGrantLevel(viewer, level), `grant ${level}`).toBe(expected);
      }
    });
  }
});

describe('project and group settings abilities', () => {
  // [update (admin_project), rename/visibility/remove (Owner), administer group (admin_group)]
  const EXPECTED: Record<string, [boolean, boolean, boolean]> = {
    anonymous: [false, false, false],
    'non-member': [false, false, false],
    guest: [false, false, false],
    planner: [false, false, false],
    reporter: [false, false, false],
    developer: [false, false, false],
    maintainer: [true, false, false],
    owner: [true, true, true],
    admin: [true, true, true],
  };
  for (const [name, viewer] of Object.entries(ACTORS)) {
    it(name, () => {
      const [update, owner, group] = EXPECTED[name];
      expect(canUpdateProject(viewer)).toBe(update);
      expect(canRenameProject(viewer)).toBe(owner);
      expect(canChangeProjectVisibility(viewer)).toBe(owner);
      expect(canRemoveProject(viewer)).toBe(owner);
      expect(canAdministerGroup(viewer)).toBe(group);
    });
  }
});

describe('changing and removing members', () => {
  const target = (level: number, extra: Partial<import('./policy').MemberTarget> = {}) => ({
    level,
    self: false,
    lastOwner: false,
    namespaceHolder: false,
    ...extra,
  });
  it('lets group Owners and admins manage group members, and nobody touch the last owner', () => {
    expect(canUpdateMember('group', ACTORS.owner, target(30), 40)).toBe(true);
    expect(canUpdateMember('group', ACTORS.maintainer, target(30), 20)).toBe(false);
    expect(canUpdateMember('group', ACTORS.admin, target(50), 40)).toBe(true);
    expect(canUpdateMember('group', ACTORS.admin, target(50, { lastOwner: true }), 40)).toBe(false);
    expect(canRemoveMember('group', ACTORS.owner, target(50, { self: true, lastOwner: true }))).toBe(false);
    expect(canRemoveMember('group', ACTORS.developer, target(30, { self: true }))).toBe(true);
    expect(canRemoveMember('group', ACTORS.maintainer, target(30))).toBe(false);
  });
  it('lets project Maintainers manage members below Owner; only Owners grant or revoke Owner', () => {
    expect(canUpdateMember('project', ACTORS.maintainer, target(30), 40)).toBe(true);
    expect(canUpdateMember('project', ACTORS.maintainer, target(30), 50)).toBe(false);
    expect(canUpdateMember('project', ACTORS.maintainer, target(50), 40)).toBe(false);
    expect(canUpdateMember('project', ACTORS.owner, target(50), 40)).toBe(true);
    expect(canRemoveMember('project', ACTORS.maintainer, target(50))).toBe(false);
    expect(canRemoveMember('project', ACTORS.developer, target(20))).toBe(false);
    expect(canRemoveMember('project', ACTORS.admin, target(50, { namespaceHolder: true }))).toBe(false);
    expect(canAdminMembersOf('project', ACTORS.maintainer)).toBe(true);
    expect(canAdminMembersOf('group', ACTORS.maintainer)).toBe(false);
  });
});

describe('project shares (issue 29, defect 1)', () => {
  it('Maintainers share below Owner; only Owners and admins create an Owner-access link', () => {
    for (const level of [10, 15, 20, 30, 40]) expect(canShareProjectAt(ACTORS.maintainer, level)).toBe(true);
    expect(canShareProjectAt(ACTORS.maintainer, 50)).toBe(false);
    expect(canShareProjectAt(ACTORS.developer, 30)).toBe(false);
    expect(canShareProjectAt(ACTORS.owner, 50)).toBe(true);
    expect(canShareProjectAt(ACTORS.admin, 50)).toBe(true);
  });
  it("an Owner-access link goes only for the project's Owners, admins, or an Owner of the invited group", () => {
    const link = (groupAccess: number, viewerOwnsInvitedGroup = false) => ({ groupAccess, viewerOwnsInvitedGroup });
    expect(canRemoveProjectShare(ACTORS.maintainer, link(40))).toBe(true);
    expect(canRemoveProjectShare(ACTORS.maintainer, link(50))).toBe(false);
    expect(canRemoveProjectShare(ACTORS.maintainer, link(50, true))).toBe(true);
    expect(canRemoveProjectShare(ACTORS.owner, link(50))).toBe(true);
    expect(canRemoveProjectShare(ACTORS.admin, link(50))).toBe(true);
  });
});

describe('share_with_group_lock (issue 29, defect 2)', () => {
  const at = (level: number, locked: boolean) => ({ level, locked });
  it("lifts a subgroup's lock under a locked parent only for an Owner of the parent", () => {
    expect(canChangeShareWithGroupLock([at(50, true), at(0, true)], false)).toBe(false);
    expect(canChangeShareWithGroupLock([at(50, true), at(40, true)], false)).toBe(false);
    expect(canChangeShareWithGroupLock([at(50, true), at(50, true)], false)).toBe(true);
    expect(canChangeShareWithGroupLock([at(0, true), at(0, true)], true)).toBe(true);
  });
  it('recurses: a locked grandparent binds too, while an unlocked parent frees its children', () => {
    expect(canChangeShareWithGroupLock([at(50, true), at(50, true), at(40, true)], false)).toBe(false);
    expect(canChangeShareWithGroupLock([at(50, true), at(50, true), at(50, true)], false)).toBe(true);
    expect(canChangeShareWithGroupLock([at(50, true), at(0, false), at(0, true)], false)).toBe(true);
  });
  it('an Owner turns a lock on, and changes a top-level group; others do not', () => {
    expect(canChangeShareWithGroupLock([at(50, false), at(0, true)], false)).toBe(true);
    expect(canChangeShareWithGroupLock([at(50, true)], false)).toBe(true);
    expect(canChangeShareWithGroupLock([at(40, false)], false)).toBe(false);
  });
});
