import type { BetterAuthOptions, BetterAuthPluginDBSchema } from "better-auth";

/**
 * Logical model name of svc's API key table (also its table name). svc's
 * own table, not better-auth's api-key plugin's: that plugin answers `401`
 * for a rate-limited key (#9504) and skips limits on key sessions (#2482),
 * keeps its counters in the row (a write per call), and has no owner
 * organization or procedure scopes. This table holds only the hash of each
 * key, and `@svc/ratelimit` counts the calls.
 *
 * @example names.table(API_KEY_MODEL) // "\"svcApiKey\""
 */
export const API_KEY_MODEL = "svcApiKey";

/**
 * The API key table as a better-auth schema entry, so `ensureMigrated` and
 * `compileMigrationsSql` create it with the rest of svc's schema: the
 * owner (a user or an organization), the name, the scopes (a JSON array),
 * the visible prefix, the SHA-256 of the key (unique: keys are found by it),
 * creation (when, by whom), expiry, last use and revocation. The owner
 * columns reference `user` and (with the organization plugin)
 * `organization`, deleted with them: by the database's foreign keys, and by
 * the admin API's explicit removal, which follows the same references.
 *
 * @example
 * ```ts
 * const schema: BetterAuthPluginDBSchema = { ...apiKeySchema(options.plugins) };
 * ```
 */
export function apiKeySchema(plugins: BetterAuthOptions["plugins"] = []): BetterAuthPluginDBSchema {
  const organizations = plugins.some((plugin) => plugin.id === "organization");
  const owned = (model: string) => ({ model, field: "id", onDelete: "cascade" }) as const;
  return {
    [API_KEY_MODEL]: {
      modelName: API_KEY_MODEL,
      fields: {
        name: { type: "string", required: true, input: false },
        prefix: { type: "string", required: true, input: false },
        keyHash: { type: "string", required: true, input: false },
        ownerUserId: { type: "string", required: false, input: false, references: owned("user") },
        ownerOrganizationId: {
          type: "string",
          required: false,
          input: false,
          ...(organizations ? { references: owned("organization") } : {}),
        },
        scopes: { type: "string", required: true, input: false },
        createdAt: { type: "date", required: true, input: false },
        createdBy: { type: "string", required: true, input: false },
        expiresAt: { type: "date", required: false, input: false },
        lastUsedAt: { type: "date", required: false, input: false },
        revokedAt: { type: "date", required: false, input: false },
      },
      indexes: [
        { name: "svc_api_key_hash_idx", fields: ["keyHash"], unique: true },
        { name: "svc_api_key_user_idx", fields: ["ownerUserId", "createdAt"] },
        { name: "svc_api_key_org_idx", fields: ["ownerOrganizationId", "createdAt"] },
      ],
    },
  };
}
