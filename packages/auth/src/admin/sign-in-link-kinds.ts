import type { BetterAuthOptions } from "better-auth";
import { SIGN_IN_LINK_KINDS, type SignInLinkKind } from "./contract/index.ts";

/**
 * The sign-in links an auth with these options can email, derived the way
 * better-auth sends them: a magic link needs the magic link plugin (its
 * `sendMagicLink` is required); a password-setup link is better-auth's
 * reset-password email, which needs email + password sign-in and
 * `emailAndPassword.sendResetPassword`.
 *
 * @example
 * ```ts
 * signInLinksOf({ emailAndPassword: { enabled: true, sendResetPassword }, plugins: [magicLink({ sendMagicLink })] });
 * // ["magic-link", "password-setup"]
 * ```
 */
export function signInLinksOf(options: BetterAuthOptions): SignInLinkKind[] {
  const magicLink = (options.plugins ?? []).some((plugin) => plugin.id === "magic-link");
  const reset =
    options.emailAndPassword?.enabled === true &&
    typeof options.emailAndPassword.sendResetPassword === "function";
  return SIGN_IN_LINK_KINDS.filter((kind) => (kind === "magic-link" ? magicLink : reset));
}
