import { v } from "@svc/server";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import { AuditScope } from "../admin/audit/trail.ts";
import { SqlNames } from "../admin/sql-names.ts";
import { isD1Like } from "../database.ts";
import { mintApiKey } from "./mint.ts";
import { revokeFoundApiKey } from "./revoke.ts";
import { API_KEY_MODEL } from "./schema.ts";
import { type ApiKeyDatabase, type ApiKeyOwner, findApiKey, listApiKeys } from "./store.ts";

/** Id of the self-service plugin. */
export const API_KEY_SELF_SERVICE_PLUGIN_ID = "svc-api-keys";

/**
 * Options of {@link apiKeySelfService}.
 *
 * @example
 * ```ts
 * apiKeySelfService({ organizations: { roles: ["owner"] }, maxKeysPerOwner: 10 });
 * ```
 */
export interface ApiKeySelfServiceOptions {
  /**
   * Whether members may manage their organization's keys, and which member
   * roles may (with the organization plugin). `false`: users' own keys only.
   * @default { roles: ["owner", "admin"] }
   */
  organizations?: false | { roles?: readonly string[] };
  /** Most keys in force (not revoked, not expired) one owner may hold. @default 25 */
  maxKeysPerOwner?: number;
}

interface EndpointContext {
  context: {
    options: { database?: unknown };
    tables: ConstructorParameters<typeof SqlNames>[0];
    generateId(options: { model: string }): string | false;
    session: { session: { token: string }; user: { id: string } } | null;
    internalAdapter: {
      findSession(token: string): Promise<{ session: { expiresAt: Date } } | null>;
    };
  };
}

/**
 * Refuses a session the database no longer holds, before a key is made or
 * revoked. With better-auth's cookie cache on (`session.cookieCache`), an
 * endpoint runs from a signed cookie for up to its `maxAge` after the
 * session was revoked, the user banned or an impersonation ended; a key
 * minted in that window would outlive the session by as long as it lives.
 */
async function requireStoredSession(ctx: EndpointContext): Promise<void> {
  const token = ctx.context.session?.session.token;
  const stored = token ? await ctx.context.internalAdapter.findSession(token) : null;
  if (stored === null || stored.session.expiresAt < new Date()) {
    throw new APIError("UNAUTHORIZED", { message: "The session has ended: sign in again." });
  }
}

function databaseOf(ctx: EndpointContext): ApiKeyDatabase {
  const db = ctx.context.options.database;
  if (!isD1Like(db))
    throw new APIError("INTERNAL_SERVER_ERROR", { message: "API keys need an auth on D1." });
  return { db, names: new SqlNames(ctx.context.tables) };
}

const keyBody = v.object({
  name: v.string(),
  scopes: v.array(v.string()),
  expiresInSeconds: v.optional(v.number()),
  organizationId: v.optional(v.string()),
});
const listQuery = v.object({ organizationId: v.optional(v.string()) });

/**
 * Lets signed-in users manage API keys: their own, and (with the
 * organization plugin) those of organizations where their member role is
 * one of `organizations.roles`. A better-auth plugin, so the endpoints sit
 * under the auth's base path with its session checks, CSRF origin checks
 * and OpenAPI document; an impersonation session cannot call them (svc's
 * impersonation guard allows only its list of endpoints). Each creation and
 * revocation is in the admin audit trail, by `user:<id>`.
 *
 * - `GET /api/auth/api-keys[?organizationId=]` → `{ apiKeys }`
 * - `POST /api/auth/api-keys` `{ name, scopes, expiresInSeconds?, organizationId? }`
 *   → `201 { apiKey, key }` (the key, shown once)
 * - `DELETE /api/auth/api-keys/:id` → `{ apiKey }` (revoked)
 *
 * @example
 * ```ts
 * createAuth({ ..., plugins: [organization(), apiKeySelfService()] });
 * ```
 * @see ../../../../docs/auth.md "API keys"
 */
export function apiKeySelfService(options: ApiKeySelfServiceOptions = {}) {
  const maxKeys = options.maxKeysPerOwner ?? 25;
  const orgRoles =
    options.organizations === false ? [] : (options.organizations?.roles ?? ["owner", "admin"]);

  /** The owner a request may act for: the user, or an organization the user administers. */
  async function ownerFor(
    ctx: EndpointContext,
    database: ApiKeyDatabase,
    organizationId: string | undefined,
  ): Promise<ApiKeyOwner> {
    const userId = ctx.context.session?.user.id;
    if (userId === undefined) throw new APIError("UNAUTHORIZED");
    if (organizationId === undefined) return { userId };
    const { db, names } = database;
    const member =
      orgRoles.length > 0 && names.hasModel("member")
        ? await db
            .prepare(
              `SELECT ${names.column("member", "role")} AS role FROM ${names.table("member")} ` +
                `WHERE ${names.column("member", "organizationId")} = ? AND ${names.column("member", "userId")} = ?`,
            )
            .bind(organizationId, userId)
            .first<{ role: string }>()
        : null;
    const roles = member?.role.split(",").map((role) => role.trim()) ?? [];
    if (!roles.some((role) => orgRoles.includes(role))) {
      throw new APIError("FORBIDDEN", {
        message: "Only an organization's administrators may manage its API keys.",
      });
    }
    return { organizationId };
  }

  function audit(ctx: EndpointContext, database: ApiKeyDatabase, action: "create" | "revoke") {
    const environment = { ...database, auth: ctx.context };
    const userId = ctx.context.session?.user.id ?? "";
    return new AuditScope(environment, `user:${userId}`, `api-key.${action}`, {
      targetType: "api-key",
      targetId: "",
      userId: null,
    });
  }

  return {
    id: API_KEY_SELF_SERVICE_PLUGIN_ID,
    endpoints: {
      listOwnApiKeys: createAuthEndpoint(
        "/api-keys",
        { method: "GET", query: listQuery, use: [sessionMiddleware] },
        async (ctx) => {
          const database = databaseOf(ctx);
          const owner = await ownerFor(ctx, database, ctx.query?.organizationId);
          return ctx.json({ apiKeys: await listApiKeys(database, owner) });
        },
      ),
      createOwnApiKey: createAuthEndpoint(
        "/api-keys",
        { method: "POST", body: keyBody, use: [sessionMiddleware] },
        async (ctx) => {
          await requireStoredSession(ctx);
          const database = databaseOf(ctx);
          const owner = await ownerFor(ctx, database, ctx.body.organizationId);
          const id = ctx.context.generateId({ model: API_KEY_MODEL }) || crypto.randomUUID();
          const scope = audit(ctx, database, "create");
          let minted: Awaited<ReturnType<typeof mintApiKey>>;
          try {
            minted = await mintApiKey(database, id, {
              owner,
              name: ctx.body.name,
              scopes: ctx.body.scopes,
              expiresInSeconds: ctx.body.expiresInSeconds,
              createdBy: `user:${ctx.context.session?.user.id}`,
              maxInForce: maxKeys,
            });
          } catch (error) {
            const message = error instanceof Error ? error.message : "invalid key";
            throw new APIError("BAD_REQUEST", { message });
          }
          const { ownerUserId, ownerOrganizationId, prefix } = minted.record;
          scope.target = { targetType: "api-key", targetId: id, userId: ownerUserId };
          scope.detail = `${prefix} for ${ownerUserId !== null ? `user ${ownerUserId}` : `organization ${ownerOrganizationId}`}: ${minted.record.scopes.join(" ")}`;
          // One batch: the capped insert, and its record only if it inserted.
          const [inserted] = await database.db.batch([
            minted.statement,
            scope.okStatementIf(
              `EXISTS (SELECT 1 FROM ${database.names.table(API_KEY_MODEL)} WHERE id = ?)`,
              [id],
            ),
          ]);
          if (inserted?.meta.changes !== 1) {
            throw new APIError("FORBIDDEN", {
              message: `At most ${maxKeys} API keys in force per owner; revoke one first.`,
            });
          }
          ctx.setStatus(201);
          return ctx.json({ apiKey: minted.record, key: minted.key });
        },
      ),
      revokeOwnApiKey: createAuthEndpoint(
        "/api-keys/:id",
        { method: "DELETE", use: [sessionMiddleware] },
        async (ctx) => {
          await requireStoredSession(ctx);
          const database = databaseOf(ctx);
          const found = await findApiKey(database, ctx.params.id);
          // Someone else's key answers as a missing one: ids are no oracle.
          const notFound = () => new APIError("NOT_FOUND", { message: "No such API key." });
          if (found === null) throw notFound();
          const owner: ApiKeyOwner =
            found.ownerUserId !== null
              ? { userId: found.ownerUserId }
              : { organizationId: found.ownerOrganizationId ?? "" };
          if ("userId" in owner && owner.userId !== ctx.context.session?.user.id) throw notFound();
          if ("organizationId" in owner) {
            await ownerFor(ctx, database, owner.organizationId).catch(() => {
              throw notFound();
            });
          }
          const scope = audit(ctx, database, "revoke");
          const revoked = await revokeFoundApiKey(database, found, scope, ctx.context.options);
          return ctx.json({ apiKey: revoked });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
