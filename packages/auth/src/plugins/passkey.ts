/**
 * `@svc/auth/plugins/passkey`: better-auth's WebAuthn passkey plugin, on its own subpath because
 * its package is an optional peer. `@better-auth/passkey`'s newest release (1.7.6) pins the
 * better-call, `@better-auth/utils` and `@better-fetch/fetch` versions of better-auth 1.7.6, so it
 * installs beside better-auth 1.7.29 only with the three-line `overrides` block in docs/auth.md
 * ("Supported versions"); an app that does not use passkeys never installs it and never breaks.
 *
 * @example
 * ```ts
 * // npm install @better-auth/passkey@1.7.6   (with the overrides of docs/auth.md)
 * import { admin } from "@svc/auth/plugins";
 * import { passkey } from "@svc/auth/plugins/passkey";
 * createAuth({ secret, database, plugins: [admin(), passkey({ rpName: "My app" })] });
 * ```
 * @see ../../../../docs/auth.md "Supported versions"
 * @packageDocumentation
 */

export {
  /** WebAuthn passkeys, for passwordless login or as a second factor. */
  passkey,
} from "@better-auth/passkey";
