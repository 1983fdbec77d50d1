/** The text that replaces a secret wherever config is shown (APIs, logs, error messages). */
export const REDACTED = '<redacted>';

// Greedy up to the last `@` of the authority: a password may itself contain an `@`.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

/** `smtp://user:pass@host:587` -> `smtp://<redacted>@host:587`; other text unchanged. */
export function redactUrlCredentials(url: string): string {
  return url.replace(USERINFO, `$1${REDACTED}@`);
}
