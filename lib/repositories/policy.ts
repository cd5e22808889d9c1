// Who may read a project's repository (GitLab's read_code = download_code): everyone who can see a public
// project, signed-in users on internal ones, Reporter+ on private ones (guests are kept out), and admins.
// The project is assumed readable already (findProject answered 404 otherwise).
import { AccessLevel } from '../namespaces/access';
import type { Viewer, VisibilityName } from '../namespaces/policy';

export function canReadCode(viewer: Viewer, project: { visibility: VisibilityName }): boolean {
  if (viewer.admin) return true;
  if (project.visibility === 'public') return true;
  if (project.visibility === 'internal') return viewer.signedIn;
  return viewer.signedIn && viewer.level >= AccessLevel.REPORTER;
}
