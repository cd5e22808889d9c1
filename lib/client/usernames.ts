// The API's username check (GitLab's path rules for a user): a list filter drops a value the API would
// refuse (400) from the address instead of sending it.
export const USERNAME = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]{0,254}$/;
