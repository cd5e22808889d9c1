// GitLab's two error shapes: {"message": ...} from its own helpers, {"error": ...} from parameter
// validation, OAuth and the unknown-route catch-all. Throw ApiError anywhere below a handler.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

const withReason = (base: string, reason?: string) => (reason ? `${base} - ${reason}` : base);

export const badRequest = (reason?: string) => new ApiError(400, { message: withReason('400 Bad request', reason) });
export const unauthorized = (reason?: string) => new ApiError(401, { message: withReason('401 Unauthorized', reason) });
export const forbidden = (reason?: string) => new ApiError(403, { message: withReason('403 Forbidden', reason) });
/** `notFound('Project')` gives "404 Project Not Found"; no resource gives "404 Not Found". */
export const notFound = (resource?: string) => new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });
/** What GitLab answers when a `find_by!` raises RecordNotFound: note the lower-case "f". */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });
export const conflict = (message = '409 Conflict') => new ApiError(409, { message });
export const gone = (reason?: string) => new ApiError(410, { message: withReason('410 Gone', reason) });
export const unprocessable = (message = '422 Unprocessable Entity') => new ApiError(422, { message });
/** A free-form `{"message": ...}` error, as GitLab's render_api_error! builds it. */
export const apiError = (status: number, message: string | Record<string, unknown>) => new ApiError(status, { message });
/** ActiveModel-style validation errors: `{"message": {"attr": ["msg"]}}`. */
export const validationError = (errors: Record<string, string[]>) => new ApiError(400, { message: errors });
/** Grape parameter errors: `{"error": "a is missing, b is invalid"}`. */
export const paramError = (messages: string[]) => new ApiError(400, { error: messages.join(', ') });
export const routeNotFound = () => new ApiError(404, { error: '404 Not Found' });
/** GitLab's file_too_large! wording, for a body past RUNWAY_MAX_BODY_BYTES. */
export const payloadTooLarge = () => new ApiError(413, { message: '413 Request Entity Too Large' });
/** A body that stopped arriving: the client went away, or Node cut it off at RUNWAY_REQUEST_TIMEOUT_SECONDS. */
export const requestTimeout = () => new ApiError(408, { message: '408 Request Timeout' });
/** The database cannot be reached: clients (gitlab-runner included) retry a 503 later. */
export const serviceUnavailable = () => new ApiError(503, { message: '503 Service Unavailable' });
