// Who a request acts as, once authenticated. Its own module so that the kernel below the API's
// authentication (the rate limits) can name it.
import type { User } from '../db/generated/client';

export interface Actor {
  user: User;
  via: 'token' | 'session';
  /** The personal access token used, when there was one. */
  token?: { id: number; scopes: string[] };
  /** The dashboard session used, as GET /user/sessions names it (the digest of the JWT's `sid`). */
  sessionId?: string;
  /** The admin who sent `Sudo`, when the request is impersonated. */
  sudoFrom?: User;
}
