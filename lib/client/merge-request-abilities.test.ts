import { describe, expect, it } from 'vitest';
import { canUpdateMergeRequest as serverRule } from '../merge-requests/policy';
import { canUpdateMergeRequest } from './merge-request-abilities';

const user = (id: number) => ({ id, username: `u${id}`, name: `U ${id}`, state: 'active', avatar_url: null, web_url: '' });

describe('canUpdateMergeRequest (dashboard) agrees with the API policy', () => {
  // The page only renders for viewers who could read the MR: a signed-in Reporter+ on a private project.
  const cases = [
    { level: 20, admin: false, author: 2, assignee: 3, expected: false },
    { level: 20, admin: false, author: 1, assignee: 3, expected: true },
    { level: 20, admin: false, author: 2, assignee: 1, expected: true },
    { level: 30, admin: false, author: 2, assignee: 3, expected: true },
    { level: 50, admin: false, author: 2, assignee: 3, expected: true },
    { level: 0, admin: true, author: 2, assignee: 3, expected: true },
  ];
  it.each(cases)('level $level admin $admin author $author assignee $assignee -> $expected', (c) => {
    const client = canUpdateMergeRequest({ id: 1, admin: c.admin, level: c.level }, { author: user(c.author), assignees: [user(c.assignee)] });
    const server = serverRule(
      { signedIn: true, admin: c.admin, level: c.level, userId: 1 },
      { visibility: 'private' },
      { authorId: c.author, assigneeIds: [c.assignee] },
    );
    expect(client).toBe(c.expected);
    expect(server).toBe(c.expected);
  });
});
