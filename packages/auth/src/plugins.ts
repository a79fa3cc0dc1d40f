/**
 * `@svc/auth/plugins`: every better-auth plugin factory the specification
 * lists, under its names. Behaviour and options are better-auth's own; see
 * its documentation for each. A plugin not listed here (or a community one)
 * works the same way: put its factory in `plugins`, and `ensureMigrated`
 * picks up its tables.
 *
 * Where each comes from (better-auth 1.7.29): the `better-auth/plugins` barrel,
 * except `oauthProvider` (`@better-auth/oauth-provider`, which replaced the
 * removed OIDC provider plugin). `passkey` and `mcp` / `requireMcpAuth` /
 * `mcpHandler` come from optional peers whose last releases lag better-auth,
 * so they live on their own subpaths (`@svc/auth/plugins/passkey`,
 * `@svc/auth/plugins/mcp`): an app that does not use them installs and bundles
 * without them. The names here throw `AUTH_PLUGIN_SUBPATH`, saying what to
 * install and where to import from.
 *
 * @example
 * ```ts
 * import { admin, bearer, organization, twoFactor } from "@svc/auth/plugins";
 * import { passkey } from "@svc/auth/plugins/passkey";
 * createAuth({ secret, database, plugins: [admin(), organization(), twoFactor(), passkey(), bearer()] });
 * ```
 * @see ../../../docs/auth.md "Plugins: `@svc/auth/plugins`"
 * @packageDocumentation
 */

import { onSubpath } from "./plugins/on-subpath.ts";

export {
  /** Makes the app an OAuth 2.1 / OpenID Connect provider (needs `jwt()`). */
  oauthProvider,
} from "@better-auth/oauth-provider";

/** Moved to `@svc/auth/plugins/passkey` (optional peer `@better-auth/passkey`); calling this one throws `AUTH_PLUGIN_SUBPATH`. */
export const passkey = onSubpath("passkey");
/** Moved to `@svc/auth/plugins/mcp` (optional peer `@better-auth/mcp`); calling this one throws `AUTH_PLUGIN_SUBPATH`. */
export const mcp = onSubpath("mcp");
/** Moved to `@svc/auth/plugins/mcp`; calling this one throws `AUTH_PLUGIN_SUBPATH`. */
export const requireMcpAuth = onSubpath("requireMcpAuth");
/** Moved to `@svc/auth/plugins/mcp`; calling this one throws `AUTH_PLUGIN_SUBPATH`. */
export const mcpHandler = onSubpath("mcpHandler");

export {
  /** Admin APIs: list and ban users, set roles, impersonate, revoke sessions. */
  admin,
  /** Guest sessions that can later become a real account. */
  anonymous,
  /** Accepts the session token in `Authorization: Bearer` instead of a cookie. */
  bearer,
  /** Gates sensitive auth endpoints (default: sign-up, sign-in, password reset) with a captcha provider; token in `x-captcha-response`. */
  captcha,
  /** Builder for custom roles and permissions, passed as `ac`/`roles` to `admin` and `organization`. */
  createAccessControl,
  /** Adds custom fields to the session object returned to the client. */
  customSession,
  /** OAuth 2.0 device authorization grant for input-constrained clients. */
  deviceAuthorization,
  /** Emails a one-time numeric code to verify an address or sign in. */
  emailOTP,
  /** Any OAuth 2.0 / OIDC provider beyond the built-in social ones. */
  genericOAuth,
  /**
   * Rejects passwords found in a public breach corpus (k-anonymity range
   * check). better-auth exports it under the corpus service's name.
   */
  haveIBeenPwned as pwnedPasswords,
  /** Issues verifiable JWTs and serves a JWKS endpoint. */
  jwt,
  /** Sign-in by emailing a one-time login link. */
  magicLink,
  /** Several signed-in accounts at once, with switching. */
  multiSession,
  /** Routes OAuth callbacks through one stable URL (preview deploys). */
  oAuthProxy,
  /** Issues and verifies single-use, short-lived tokens. */
  oneTimeToken,
  /** Multi-tenant organizations with members, invitations and roles. */
  organization,
  /** Phone-number sign-in and verification over SMS one-time codes. */
  phoneNumber,
  /** Sign-In with Ethereum. */
  siwe,
  /** TOTP authenticator apps plus backup codes. */
  twoFactor,
  /** A unique username as a login identifier alongside email. */
  username,
} from "better-auth/plugins";
