/**
 * `@svc/auth/plugins/mcp`: better-auth's Model Context Protocol plugin and its request guards, on
 * their own subpath because `@better-auth/mcp` is an optional peer. Its newest release (1.7.5) pins
 * the better-call version of better-auth 1.7.5, so it installs beside better-auth 1.7.29 only with
 * the `overrides` block in docs/auth.md ("Supported versions"); an app that does not use MCP never
 * installs it and never breaks.
 *
 * @example
 * ```ts
 * // npm install @better-auth/mcp@1.7.5   (with the overrides of docs/auth.md)
 * import { jwt } from "@svc/auth/plugins";
 * import { mcp } from "@svc/auth/plugins/mcp";
 * createAuth({ secret, database, plugins: [jwt(), mcp({ loginPage: "/login", consentPage: "/consent", resource })] });
 * ```
 * @see ../../../../docs/auth.md "Supported versions"
 * @packageDocumentation
 */

export {
  /**
   * Verifies an MCP access token on a protected-resource request and answers
   * unauthenticated calls with an RFC 9728 `WWW-Authenticate` challenge
   * (`createMcpProtectedRequestHandler` in `@better-auth/mcp`; the spec's
   * `mcpHandler`).
   */
  createMcpProtectedRequestHandler as mcpHandler,
  /** OAuth 2.1 authorization server configured for Model Context Protocol clients (needs `jwt()`). */
  mcp,
  /** Wraps an MCP request handler so it runs only with a valid access token (formerly `withMcpAuth`). */
  requireMcpAuth,
} from "@better-auth/mcp";
