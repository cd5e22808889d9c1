// GET /version: the GitLab version Runway answers as (clients gate features on it) and Runway's own.
import pkg from '../../package.json';

export const GITLAB_COMPAT_VERSION = '18.6.0';

export function versionInfo() {
  return {
    version: GITLAB_COMPAT_VERSION,
    revision: `runway-${pkg.version}`,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: false,
  };
}
