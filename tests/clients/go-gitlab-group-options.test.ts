// Debian's go-gitlab (what terraform's GitLab provider is built on): every CreateGroupOptions and
// UpdateGroupOptions field whose key the group entity reports is set alone and read back as written
// (tests/clients/go/groupoptions walks the structs by reflection). Skipped, saying why, without go or the
// library.
import { describe, expect, it } from 'vitest';
import { uniq } from '../support/api';
import { createGroup } from '../support/namespaces';
import { createUser } from '../support/users';
import { goSkipReason, runGoCommand } from '../support/go-gitlab';

const reason = goSkipReason;

// Options Runway's group entity does not report, so a client reads no value to drift on.
const NOT_REPORTED = [
  // EE: group membership lock (Premium).
  'membership_lock',
  // EE: compute minutes quotas (an admin's, on GitLab.com).
  'shared_runners_minutes_limit',
  'extra_shared_runners_minutes_limit',
  // EE: the project whose files are the group's templates (Premium).
  'file_template_project_id',
  // EE: forking restriction (Premium).
  'prevent_forking_outside_group',
];

describe('[IAC] go-gitlab: CreateGroupOptions and UpdateGroupOptions round-trip', () => {
  it(
    `each reported option is read back as written${reason ? ` (skipped: ${reason})` : ''}`,
    { skip: !!reason, meta: { skipReason: reason || undefined }, timeout: 300_000 },
    async () => {
      const user = await createUser();
      const parent = await createGroup(user.token);
      const seen = runGoCommand('groupoptions', { RUNWAY_TOKEN: user.token, RUNWAY_GROUP_ID: String(parent.id), RUNWAY_TAG: uniq('gogrp') });
      for (const op of ['create', 'update'] as const) {
        expect(seen[op].mismatched, op).toEqual({});
        expect(seen[op].skipped, op).toEqual({});
        expect(
          seen[op].not_reported.filter((k: string) => !NOT_REPORTED.includes(k)),
          `${op}: options neither reported nor listed`,
        ).toEqual([]);
        expect(seen[op].checked, op).toEqual(
          expect.arrayContaining([
            'name',
            'path',
            'description',
            'visibility',
            'project_creation_level',
            'subgroup_creation_level',
            'default_branch_protection',
            'emails_disabled',
            'auto_devops_enabled',
          ]),
        );
      }
      // parent_id is an input of creation only (a transfer moves a group), so only the create walk has it.
      expect(seen.create.checked).toContain('parent_id');
      expect(seen.update.checked).toEqual(expect.arrayContaining(['shared_runners_setting', 'prevent_sharing_groups_outside_hierarchy']));
    },
  );
});
