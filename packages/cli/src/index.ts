/**
 * @svc/cli — the `svc` command as a library: codegen, dev, and a dev server
 * for end-to-end tests.
 *
 * @packageDocumentation
 */
export {
  AdminClient,
  type AdminConnection,
  type AdminRequest,
  adminConnection,
  DEFAULT_APP_URL,
} from "./admin-client.ts";
export { type CodegenOptions, type CodegenResult, codegen } from "./commands/codegen.ts";
export { type DevOptions, dev } from "./commands/dev.ts";
export { type MigrateOptions, type MigrateResult, migrate } from "./commands/migrate.ts";
export { type DeployBundle, deployBundle } from "./deploy-bundle.ts";
export { type DevServer, type DevServerOptions, startDevServer } from "./dev-server.ts";
export { type CliErrorCode, SvcCliError } from "./errors.ts";
export { freePort } from "./ports.ts";
export { createProgress, type Progress } from "./progress.ts";
export { SVC_VERSION } from "./version.ts";
export { buildForDeploy, runWrangler, WRANGLER_QUIET_ENV, wranglerEntry } from "./wrangler.ts";
