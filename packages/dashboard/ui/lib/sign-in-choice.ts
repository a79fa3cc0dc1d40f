import type { Capabilities, SignInLinkKind } from "../api/types.ts";

/** Plugins with which a user can start signing in on their own, by email. */
const SELF_SERVE_PLUGINS = ["magic-link", "email-otp"];

/** What the New user dialog offers and sends for one state of its form. */
export interface SignInChoice {
  /**
   * Links to offer: none beside a typed password (there is nothing to set up,
   * and following a magic link would remove the password of a user whose
   * email is not verified, as a new one's is not).
   */
  offered: SignInLinkKind[];
  /** The link to send: the operator's pick while it is offered, else the first offered. */
  link: SignInLinkKind | "none";
  /**
   * Nothing would let the user in: no password, no link, and the app's
   * sign-in page offers nothing by email (no magic link, one-time code or
   * password reset).
   */
  noWayIn: boolean;
}

/**
 * Decides the New user dialog's sign-in link from what the app can send,
 * the typed password and the operator's pick (`null` before any), so the
 * "no way to sign in" warning appears exactly when it is true.
 *
 * @example
 * ```ts
 * signInChoice({ signInLinks: ["magic-link"], plugins: ["magic-link"] }, "", null);
 * // { offered: ["magic-link"], link: "magic-link", noWayIn: false }
 * ```
 */
export function signInChoice(
  capabilities: Pick<Capabilities, "signInLinks" | "plugins">,
  password: string,
  picked: SignInLinkKind | "none" | null,
): SignInChoice {
  const offered = password === "" ? capabilities.signInLinks : [];
  const link =
    picked === "none" || (picked !== null && offered.includes(picked))
      ? picked
      : (offered[0] ?? "none");
  const selfServe =
    capabilities.signInLinks.length > 0 ||
    capabilities.plugins.some((plugin) => SELF_SERVE_PLUGINS.includes(plugin));
  return { offered, link, noWayIn: password === "" && link === "none" && !selfServe };
}
