// Who reads which audit events: the role matrix of lib/audit/policy.ts.
import { describe, expect, it } from 'vitest';
import { canReadGroupAuditEvent, canReadInstanceAuditEvents, canReadProjectAuditEvent, groupAuditReach, projectAuditReach } from './policy';

const ROLES = [
  ['admin (no membership)', { admin: true, level: 0 }],
  ['owner', { admin: false, level: 50 }],
  ['maintainer', { admin: false, level: 40 }],
  ['developer', { admin: false, level: 30 }],
  ['reporter', { admin: false, level: 20 }],
  ['planner', { admin: false, level: 15 }],
  ['guest', { admin: false, level: 10 }],
  ['non-member', { admin: false, level: 0 }],
] as const;

//                          instance  group list  group one  project list  project one
const EXPECTED: Record<string, [boolean, string, boolean, string, boolean]> = {
  'admin (no membership)': [true, 'all', true, 'all', true],
  owner: [false, 'all', true, 'all', true],
  maintainer: [false, 'own', false, 'all', true],
  developer: [false, 'own', false, 'own', false],
  reporter: [false, 'none', false, 'none', false],
  planner: [false, 'none', false, 'none', false],
  guest: [false, 'none', false, 'none', false],
  'non-member': [false, 'none', false, 'none', false],
};

describe('audit events policy matrix', () => {
  it.each(ROLES)('%s', (name, reader) => {
    expect([
      canReadInstanceAuditEvents(reader),
      groupAuditReach(reader),
      canReadGroupAuditEvent(reader),
      projectAuditReach(reader),
      canReadProjectAuditEvent(reader),
    ]).toEqual(EXPECTED[name]);
  });
});
