// The merge request policy as a matrix: role x visibility x ability.
import { describe, expect, it } from 'vitest';
import { canCreateMergeRequest, canDeleteMergeRequest, canReadMergeRequests, canUpdateMergeRequest, type MrViewer } from './policy';

const AUTHOR = 7;
const ASSIGNEE = 8;
const mr = { authorId: AUTHOR, assigneeIds: [ASSIGNEE] };
const v = (signedIn: boolean, level: number, userId: number | null, admin = false): MrViewer => ({ signedIn, admin, level, userId });

const roles: Record<string, MrViewer> = {
  anonymous: v(false, 0, null),
  nonMember: v(true, 0, 99),
  guest: v(true, 10, 99),
  planner: v(true, 15, 99),
  reporter: v(true, 20, 99),
  developer: v(true, 30, 99),
  maintainer: v(true, 40, 99),
  owner: v(true, 50, 99),
  authorReporter: v(true, 20, AUTHOR),
  assigneeReporter: v(true, 20, ASSIGNEE),
  authorGuest: v(true, 10, AUTHOR),
  admin: v(true, 0, 99, true),
};

// [read, create, update] per visibility
const expected: Record<string, Record<'private' | 'internal' | 'public', [boolean, boolean, boolean]>> = {
  anonymous: { private: [false, false, false], internal: [false, false, false], public: [true, false, false] },
  nonMember: { private: [false, false, false], internal: [true, false, false], public: [true, false, false] },
  guest: { private: [false, false, false], internal: [true, false, false], public: [true, false, false] },
  planner: { private: [false, false, false], internal: [true, false, false], public: [true, false, false] },
  reporter: { private: [true, false, false], internal: [true, false, false], public: [true, false, false] },
  developer: { private: [true, true, true], internal: [true, true, true], public: [true, true, true] },
  maintainer: { private: [true, true, true], internal: [true, true, true], public: [true, true, true] },
  owner: { private: [true, true, true], internal: [true, true, true], public: [true, true, true] },
  authorReporter: { private: [true, false, true], internal: [true, false, true], public: [true, false, true] },
  assigneeReporter: { private: [true, false, true], internal: [true, false, true], public: [true, false, true] },
  // A guest author of a private project cannot read the MR, so cannot update it either.
  authorGuest: { private: [false, false, false], internal: [true, false, true], public: [true, false, true] },
  admin: { private: [true, true, true], internal: [true, true, true], public: [true, true, true] },
};

describe('[MERGE REQUESTS] policy matrix', () => {
  for (const [role, viewer] of Object.entries(roles)) {
    for (const visibility of ['private', 'internal', 'public'] as const) {
      it(`${role} on a ${visibility} project`, () => {
        const project = { visibility };
        expect([canReadMergeRequests(viewer, project), canCreateMergeRequest(viewer, project), canUpdateMergeRequest(viewer, project, mr)]).toEqual(
          expected[role][visibility],
        );
      });
    }
  }
});

describe('destroy_merge_request', () => {
  it('project Owners and admins only (not the author, not Maintainers)', () => {
    const allowed = Object.entries(roles)
      .filter(([, viewer]) => canDeleteMergeRequest(viewer))
      .map(([name]) => name);
    expect(allowed.sort()).toEqual(['admin', 'owner']);
  });
});
