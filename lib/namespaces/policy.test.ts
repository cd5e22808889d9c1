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
