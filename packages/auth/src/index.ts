/**
 * `@svc/auth`: a thin layer over better-auth for Cloudflare Workers + D1.
 * Plugin factories live in `@svc/auth/plugins`, `withAuthPlugins` in
 * `@svc/auth/middleware`.
 *
 * @packageDocumentation
 */

export type { Capabilities } from "./admin/capabilities.ts";
export { type AuthAdmin, createAuthAdmin } from "./admin/create-auth-admin.ts";
export type { AdminAuthSource } from "./admin/environment.ts";
export type {
  AuthAdminFeatures,
  AuthAdminOptions,
  ImpersonationOptions,
} from "./admin/options.ts";
export {
  type ApiKeyIdentityOptions,
  type ApiKeySource,
  apiKeyIdentity,
} from "./api-keys/identity.ts";
export { API_KEY_HEADER, API_KEY_PREFIX } from "./api-keys/key-material.ts";
export {
  API_KEY_SELF_SERVICE_PLUGIN_ID,
  type ApiKeySelfServiceOptions,
  apiKeySelfService,
} from "./api-keys/self-service.ts";
export {
  CAPTCHA_SITEVERIFY_URL,
  CAPTCHA_TEST_SECRET_ALWAYS_PASSES,
  DEFAULT_CAPTCHA_TIMEOUT_MS,
} from "./captcha/defaults.ts";
export {
  CAPTCHA_ERROR_CODES,
  type CaptchaErrorCode,
  CaptchaVerificationError,
  captchaErrorCodes,
} from "./captcha/errors.ts";
export {
  type CaptchaMeta,
  type VerifyCaptchaMiddlewareOptions,
  verifyCaptchaMiddleware,
} from "./captcha/middleware.ts";
export { type CaptchaVerdict, type VerifyCaptchaOptions, verifyCaptcha } from "./captcha/verify.ts";
export { createAuth, type SvcAuth, type SvcAuthOptions } from "./create-auth.ts";
export { svcDatabaseAdapter } from "./database.ts";
export { AUTH_ERROR_CODES, type AuthErrorCode, authErrorCodes, SvcAuthError } from "./errors.ts";
export {
  type AuthRequestHandler,
  DEFAULT_BASE_PATH,
  type HandleAuthRequestOptions,
  handleAuthRequest,
} from "./handle-request.ts";
export {
  IMPERSONATION_ALLOWED_PATHS,
  isAllowedWhileImpersonating,
} from "./impersonation/allow-list.ts";
export {
  type ImpersonationGuardOptions,
  impersonationGuard,
} from "./impersonation/guard-plugin.ts";
export { type AccountSource, AUTH_ACCOUNT_SOURCES } from "./limits/accounts.ts";
export {
  type AuthRateLimit,
  type AuthRateLimitOptions,
  createAuthRateLimit,
} from "./limits/rate-limit.ts";
export {
  AUTH_FIELD_LIMITS,
  DEFAULT_AUTH_MAX_BODY_BYTES,
} from "./limits/request-guard.ts";
export { type AuthLimitName, type AuthLimitRule, DEFAULT_AUTH_LIMITS } from "./limits/rules.ts";
export { type CompileMigrationsOptions, compileMigrationsSql } from "./migrations/compile-sql.ts";
export { ensureMigrated, type MigratableAuth } from "./migrations/ensure-migrated.ts";
export {
  type SessionIdentity,
  type SessionIdentityOptions,
  type SessionSource,
  sessionIdentity,
} from "./session-identity.ts";
