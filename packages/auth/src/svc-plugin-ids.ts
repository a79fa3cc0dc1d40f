import { SVC_ADMIN_PLUGIN_ID } from "./admin/schema-plugin.ts";

/** Id of the impersonation guard `createAuth` appends (see `impersonationGuard`). */
export const IMPERSONATION_GUARD_PLUGIN_ID = "svc-impersonation-guard";

/**
 * Ids of the plugins svc itself appends to every auth instance. They are not
 * the app's choice, so lists of "the app's plugins" (capabilities, migration
 * headers) leave them out.
 *
 * @example
 * ```ts
 * plugins.map((plugin) => plugin.id).filter((id) => !SVC_PLUGIN_IDS.has(id));
 * ```
 */
export const SVC_PLUGIN_IDS: ReadonlySet<string> = new Set([
  SVC_ADMIN_PLUGIN_ID,
  IMPERSONATION_GUARD_PLUGIN_ID,
]);
