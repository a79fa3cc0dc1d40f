import type { BetterAuthOptions, BetterAuthPlugin, BetterAuthPluginDBSchema } from "better-auth";
import { apiKeySchema } from "../api-keys/schema.ts";

/**
 * Id of svc's own schema plugin; `createAuth` and `compileMigrationsSql` add
 * it, `createAuthAdmin` looks for it.
 *
 * @example
 * ```ts
 * auth.options.plugins?.some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID);
 * ```
 */
export const SVC_ADMIN_PLUGIN_ID = "svc-admin";

/**
 * Logical model name of the audit trail table (also its table name).
 *
 * @example
 * ```ts
 * names.table(AUDIT_MODEL); // "\"svcAdminAudit\""
 * ```
 */
export const AUDIT_MODEL = "svcAdminAudit";

/**
 * Names of the user indexes behind the role and banned filters of `GET users`
 * (created with the admin plugin only).
 *
 * @example
 * ```ts
 * db.prepare("SELECT name FROM sqlite_master WHERE name = ?").bind(USER_ROLE_INDEX);
 * ```
 */
export const USER_ROLE_INDEX = "svc_user_role_idx";
/** See {@link USER_ROLE_INDEX}. */
export const USER_BANNED_INDEX = "svc_user_banned_idx";
/** The session index behind the overview's active-user counts (`GET overview`). */
export const SESSION_ACTIVITY_INDEX = "svc_session_updated_idx";

type Plugins = NonNullable<BetterAuthOptions["plugins"]>;

/**
 * The audit table of the admin surface, the API key table, and the indexes
 * their lists need, as a better-auth plugin that adds no endpoints: a
 * schema only. Because it is a
 * plugin, better-auth's own migrator creates it, so `ensureMigrated(auth)`
 * and `compileMigrationsSql(options)` both include it with nothing to
 * remember; `createAuth` and `compileMigrationsSql` append it to `plugins`.
 *
 * Indexes (single-column plus the table's rowid; better-auth's table indexes
 * cannot name `id`, and ties on a timestamp are rare enough that SQLite's
 * per-group sort of equal keys costs nothing):
 * - `user.createdAt`, `user.name`: the `sort=created|name` pages of
 *   `GET users` (`sort=email` walks better-auth's unique index on `email`).
 * - `user.role`, `user(banned, banExpires)` (only with the admin plugin):
 *   the role and banned filters of `GET users` find and count their users
 *   through these instead of scanning. (Substring search has its own FTS5
 *   index, created next to this schema: see `search-index.ts`.)
 * - `session(updatedAt, userId)`: the overview's active users (distinct users
 *   whose sessions were used since a time), read from the index alone.
 * - `organization.createdAt`, `member(organizationId, createdAt)`,
 *   `invitation(organizationId, createdAt)`: organization pages (only when
 *   the organization plugin is in `plugins`).
 * - audit: `at`, `(targetId, at)`, `(userId, at)`, `(action, at)`: the
 *   newest-first trail, whole or filtered.
 * - API keys (`svcApiKey`, see `apiKeySchema`): the unique key hash, and
 *   `(owner, createdAt)` for each owner's list.
 *
 * @example
 * ```ts
 * betterAuth({ ...options, plugins: [...plugins, svcAdminSchema(plugins)] });
 * ```
 */
function svcAdminSchema(plugins: Plugins = []) {
  const schema: BetterAuthPluginDBSchema = {
    ...apiKeySchema(plugins),
    [AUDIT_MODEL]: {
      modelName: AUDIT_MODEL,
      fields: {
        at: { type: "date", required: true, input: false },
        operator: { type: "string", required: true, input: false },
        action: { type: "string", required: true, input: false },
        targetType: { type: "string", required: true, input: false },
        targetId: { type: "string", required: true, input: false },
        // No reference to `user`: the trail outlives the users it mentions.
        userId: { type: "string", required: false, input: false },
        outcome: { type: "string", required: true, input: false },
        detail: { type: "string", required: false, input: false },
        reason: { type: "string", required: false, input: false },
      },
      indexes: [
        { name: "svc_audit_at_idx", fields: ["at"] },
        { name: "svc_audit_target_at_idx", fields: ["targetId", "at"] },
        { name: "svc_audit_user_at_idx", fields: ["userId", "at"] },
        { name: "svc_audit_action_at_idx", fields: ["action", "at"] },
      ],
    },
    user: {
      fields: {},
      indexes: [
        { name: "svc_user_created_idx", fields: ["createdAt"] },
        { name: "svc_user_name_idx", fields: ["name"] },
        ...(plugins.some((plugin) => plugin.id === "admin")
          ? [
              { name: USER_ROLE_INDEX, fields: ["role"] as const },
              { name: USER_BANNED_INDEX, fields: ["banned", "banExpires"] as const },
            ]
          : []),
      ],
    },
    session: {
      fields: {},
      indexes: [{ name: SESSION_ACTIVITY_INDEX, fields: ["updatedAt", "userId"] }],
    },
  };
  const organization = plugins.find((plugin) => plugin.id === "organization");
  if (organization?.schema) {
    const modelName = (key: string) => organization.schema?.[key]?.modelName ?? key;
    schema.organization = {
      modelName: modelName("organization"),
      fields: {},
      indexes: [{ name: "svc_org_created_idx", fields: ["createdAt"] }],
    };
    schema.member = {
      modelName: modelName("member"),
      fields: {},
      indexes: [{ name: "svc_member_org_created_idx", fields: ["organizationId", "createdAt"] }],
    };
    schema.invitation = {
      modelName: modelName("invitation"),
      fields: {},
      indexes: [
        { name: "svc_invitation_org_created_idx", fields: ["organizationId", "createdAt"] },
      ],
    };
  }
  return { id: SVC_ADMIN_PLUGIN_ID, schema } satisfies BetterAuthPlugin;
}

/**
 * `plugins` with {@link svcAdminSchema} appended, unless it is already there
 * (options read back from an auth instance carry it).
 *
 * @example
 * ```ts
 * betterAuth({ ...options, plugins: withSvcAdminSchema(options.plugins) });
 * ```
 */
export function withSvcAdminSchema(plugins: Plugins = []): Plugins {
  if (plugins.some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID)) return plugins;
  return [...plugins, svcAdminSchema(plugins)];
}
