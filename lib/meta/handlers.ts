// The metadata API's endpoint, served at two paths as GitLab serves it (lib/api/metadata.rb).
import { endpoint } from '../api/handler';
import { metadata } from './version';

/**
 * GET /metadata (GitLab 15.2+) and GET /version (deprecated since 15.5, same body): any signed-in caller;
 * a token needs `api` or `read_api`, or, as GitLab allows on reads of these two paths, `read_user` or
 * `ai_features`.
 */
export const showMetadata = endpoint({
  scopes: [
    { scope: 'read_user', readOnly: true },
    { scope: 'ai_features', readOnly: true },
  ],
  handle: () => metadata(),
});
