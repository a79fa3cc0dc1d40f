/** Deliberately loose: better-auth and the recipient's mailbox are the real checks; this catches typos early. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether a value looks like an email address, the one check every admin
 * route that takes an email uses (create, edit, import, invite), so they
 * accept and refuse the same addresses.
 *
 * @example
 * ```ts
 * if (!isEmailAddress(email)) issues.add("email", "must be an email address");
 * ```
 */
export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value);
}
