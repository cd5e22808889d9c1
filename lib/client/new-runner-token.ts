// Handing a new runner's token from the create form to its register page without putting it in the URL
// (where history, logs and Referer headers would keep it): sessionStorage, scoped to the runner id and to
// this tab, read once and removed as soon as the register page has shown it.
const key = (runnerId: number) => `runway.new-runner-token.${runnerId}`;

export function keepNewRunnerToken(runnerId: number, token: string): void {
  try {
    sessionStorage.setItem(key(runnerId), token);
  } catch {
    // Storage disabled: the register page says the token is no longer available.
  }
}

/** The token once: it is removed from storage as it is read. */
export function takeNewRunnerToken(runnerId: number): string | null {
  try {
    const token = sessionStorage.getItem(key(runnerId));
    sessionStorage.removeItem(key(runnerId));
    return token;
  } catch {
    return null;
  }
}
