// Debian's go-gitlab (golang-github-xanzy-go-gitlab-dev, GOPATH mode, no network) runs the user, group,
// project and member create-update-delete cycle (tests/clients/go/lifecycle). Skipped, saying why, when
// `go` or the library is missing; .ci/run installs both.
import { describe, expect, it } from 'vitest';
import { rootToken, uniq } from '../support/api';
import { createUser } from '../support/users';
import { goSkipReason, runGoCommand } from '../support/go-gitlab';

const reason = goSkipReason;

describe('[NAMESPACES] go-gitlab: user, group, project and member lifecycle', () => {
  it(
    `creates, updates and deletes a user, a group and a project, and a member of it${reason ? ` (skipped: ${reason})` : ''}`,
    { skip: !!reason, meta: { skipReason: reason || undefined }, timeout: 300_000 },
    async () => {
      const user = await createUser();
      const member = await createUser();
      const tag = uniq('golc');
      const seen = runGoCommand(
        'lifecycle',
        { RUNWAY_TOKEN: user.token, RUNWAY_ADMIN_TOKEN: rootToken(), RUNWAY_MEMBER_ID: String(member.id), RUNWAY_TAG: tag },
        60_000,
      );
      expect(seen).toEqual({
        group: { name: `${tag} Renamed`, full_path: `${tag}-renamed`, description: 'by go-gitlab' },
        project: { path_with_namespace: `${tag}-renamed/${tag}-project`, description: 'by go-gitlab', shared_runners_enabled: false, visibility: 'internal' },
        member: { id: member.id, access_level: 30 },
        member_edited: 40,
        member_delete_status: 204,
        member_after: 404,
        user: { username: `${tag}-user`, name: `${tag} Renamed User` },
        user_delete_status: 204,
        user_after: 404,
        project_delete_status: 202,
        project_after: 404,
        group_delete_status: 202,
        group_after: 404,
      });
    },
  );
});
