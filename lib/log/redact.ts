// Request paths as they may be logged: a segment shaped like a secret (a token pasted into a URL by
// mistake) is replaced by GitLab's "[FILTERED]". Query strings are never logged at all.

// GitLab's token prefixes (personal, runner, runner registration, deploy, pipeline trigger, feed, ...)
// and the legacy registration token prefix.
const TOKEN_PREFIX = /^(glpat-|glrt-|glrtr-|gldt-|glptt-|glft-|glimt-|glagent-|gloas-|glcbt-|glsoat-|glffct-|gltst-|GR1348941)/;
const TOKEN_CHARS = /^[A-Za-z0-9_-]{16,}$/;
const HEX = /^[0-9a-f]+$/i;

/** Long, unbroken, random-looking: at least two of upper case, lower case and digits (hex ids such as commit SHAs excepted). */
function randomLooking(segment: string): boolean {
  if (!TOKEN_CHARS.test(segment) || HEX.test(segment)) return false;
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/].filter((re) => re.test(segment)).length;
  return classes >= 2;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      const value = decoded(segment);
      return TOKEN_PREFIX.test(value) || randomLooking(value) ? '[FILTERED]' : segment;
    })
    .join('/');
}
