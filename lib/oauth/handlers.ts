// /oauth/*: GitLab's OAuth 2 provider (Doorkeeper) has no counterpart in Runway, which registers no OAuth
// applications and issues no OAuth tokens. Its paths answer as a Doorkeeper with no applications and no
// grant flow would, in Doorkeeper's JSON error shape, never with the dashboard's HTML or a redirect to the
// sign-in page, so that a client sees at once what failed. API clients authenticate with a personal access
// token instead, which /api/v4 also accepts as `Authorization: Bearer` (python-gitlab's `oauth_token`,
// gitbeaker's `oauthToken`).
import { ApiError } from '../api/errors';
import type { RouteHandler } from '../api/handler';
import { mergeParams, parseBody, parseQuery, type Params } from '../api/input';
import { json } from '../api/response';

// Doorkeeper's descriptions of its error codes (config/locales/en.yml), which clients show to users.
const DESCRIPTIONS = {
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_token: 'The access token is invalid',
} as const;

const missing = (param: string) => `Missing required parameter: ${param}.`;

/** Doorkeeper's error answer: `{"error", "error_description"}`, never cached (RFC 6749 5.2). */
function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return json({ error, error_description: description }, status, { Pragma: 'no-cache', ...headers });
}

/** RFC 6750's 401 for a bearer token the server does not know, as Doorkeeper sends it. */
function invalidToken(): Response {
  const description = DESCRIPTIONS.invalid_token;
  return oauthError(401, 'invalid_token', description, {
    'WWW-Authenticate': `Bearer realm="Doorkeeper", error="invalid_token", error_description="${description}"`,
  });
}

const invalidClient = () => oauthError(401, 'invalid_client', DESCRIPTIONS.invalid_client);

/** Query and body parameters; a body that cannot be read is Doorkeeper's invalid_request. */
async function oauthParams(req: Request): Promise<Params | Response> {
  try {
    return mergeParams(parseQuery(new URL(req.url).searchParams), await parseBody(req), {});
  } catch (err) {
    if (err instanceof ApiError && err.status !== 400) return json(err.body, err.status, err.headers);
    return oauthError(
      400,
      'invalid_request',
      'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
    );
  }
}

const given = (params: Params, name: string) => typeof params[name] === 'string' && params[name] !== '';

/** Client credentials, in the body (client_id) or as HTTP Basic (RFC 6749 2.3.1). */
const presentsClient = (req: Request, params: Params) => given(params, 'client_id') || /^Basic\s/i.test(req.headers.get('authorization') ?? '');

/**
 * POST /oauth/token: Doorkeeper looks the grant type up before anything else; with no grant flow enabled,
 * every grant type (password, authorization_code, refresh_token, client_credentials...) is unsupported.
 */
export const requestToken: RouteHandler = async (req) => {
  const params = await oauthParams(req);
  if (params instanceof Response) return params;
  if (!given(params, 'grant_type')) return oauthError(400, 'invalid_request', missing('grant_type'));
  return oauthError(400, 'unsupported_grant_type', DESCRIPTIONS.unsupported_grant_type);
};

/**
 * POST /oauth/revoke (RFC 7009): no client is known, so presented credentials fail; a token Runway did not
 * issue is an invalid token, which RFC 7009 answers 200 (a personal access token is not revoked here).
 */
export const revokeToken: RouteHandler = async (req) => {
  const params = await oauthParams(req);
  if (params instanceof Response) return params;
  if (presentsClient(req, params)) return invalidClient();
  if (!given(params, 'token')) return oauthError(400, 'invalid_request', missing('token'));
  return json({}, 200, { Pragma: 'no-cache' });
};

/**
 * GET and POST /oauth/authorize: the client is checked first and none exists. Never a redirect, even to a
 * given redirect_uri: RFC 6749 4.1.2.1 forbids redirecting for an unknown client.
 */
export const authorize: RouteHandler = async (req) => {
  const params = await oauthParams(req);
  if (params instanceof Response) return params;
  if (!given(params, 'client_id')) return oauthError(400, 'invalid_request', missing('client_id'));
  return invalidClient();
};

/** GET /oauth/token/info and /oauth/userinfo: no OAuth token exists, so whatever is presented is invalid. */
export const tokenInfo: RouteHandler = async () => invalidToken();

/** POST /oauth/introspect (RFC 7662): the caller must authenticate, as a client or with a bearer token. */
export const introspect: RouteHandler = async (req) => (/^Bearer\s/i.test(req.headers.get('authorization') ?? '') ? invalidToken() : invalidClient());
