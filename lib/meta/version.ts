// GET /metadata and its older alias GET /version: the GitLab version Runway answers as (clients gate
// features on it), the revision Runway was built from, and the agent server (KAS), which Runway has not.
import { buildInfo } from '../config/build-info';

export const GITLAB_COMPAT_VERSION = '18.6.0';

export function metadata() {
  return {
    version: GITLAB_COMPAT_VERSION,
    // GitLab's is the short commit hash it was built from; Runway's own version is `runway --version`'s
    // and runway_build_info's.
    revision: buildInfo().revision,
    // Typed as GitLab's (strings when KAS is on), so that clients generated from the OpenAPI document fit.
    kas: { enabled: false as boolean, externalUrl: null as string | null, externalK8sProxyUrl: null as string | null, version: null as string | null },
    enterprise: false,
  };
}
