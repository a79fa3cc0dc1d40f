import { dashboardAssets } from "@svc/dashboard";
import type { AuthAdminSurface, DashboardAssets } from "@svc/server";
import { problemResponse } from "@svc/server/internal";
import { serveRoutes } from "@svc/server/routes";
import { expireRevocationViews } from "../revocation/revocation-feed.ts";
import { recordDataAction } from "./audit/data-actions.ts";
import { AUDIT_ACTIONS, AuditScope } from "./audit/trail.ts";
import { isCapabilityOn } from "./capabilities.ts";
import { AUDIT_TARGETS, D1_BOOKMARK_HEADER } from "./contract/index.ts";
import {
  type AdminAuthSource,
  type AdminEnvironment,
  adminEnvironment,
  assertAdministrable,
} from "./environment.ts";
import { toAdminError } from "./errors.ts";
import type { AdminContext } from "./handler.ts";
import { handleImpersonationLink } from "./impersonation/link-handler.ts";
import { publishedAuthRoutes } from "./openapi.ts";
import { type AuthAdminOptions, resolveAdminOptions } from "./options.ts";
import { adminReadSession } from "./read-session.ts";
import { ADMIN_AUTH_IMPLEMENTATION } from "./routes.ts";
import { lookupIdentity } from "./users/identity-lookup.ts";

/** The admin surface `createAuthAdmin` returns: `createWorker`'s `authAdmin`. */
export interface AuthAdmin extends AuthAdminSurface {
  readonly dashboard?: DashboardAssets;
}

/**
 * The user-management surface under `/_svc/admin/auth/` and its dashboard
 * (`/_svc/dashboard/`, from `@svc/dashboard`), for
 * `createWorker({ adminToken, authAdmin: createAuthAdmin(auth) })`. A trusted
 * server-side operator over better-auth's database: it reads the enabled
 * plugins from `auth.$context`, answers the routes of `docs/admin-api.md`
 * with allow-listed JSON, and records every action (operator = name of the
 * admin token used) in the audit table that `createAuth` adds to the schema.
 * `createWorker` checks the admin token before anything here runs, except
 * for the one-time links of `/_svc/admin/auth/link/` (`handleLink`), whose
 * single-use code is their credential.
 *
 * @param auth an auth built with `createAuth` on D1 (`svcDatabaseAdapter`)
 * @throws {SvcAuthError} `AUTH_ADMIN_INVALID_OPTIONS`, `AUTH_ADMIN_SCHEMA_MISSING`,
 * `AUTH_ADMIN_UNSUPPORTED` (not on D1, or sessions in `secondaryStorage`)
 * @example
 * ```ts
 * import { createAuthAdmin } from "@svc/auth";
 * import { createWorker } from "@svc/server";
 *
 * const svc = createWorker({
 *   shardDO: "SHARD",
 *   functions,
 *   adminToken: { alice: env.ADMIN_TOKEN_ALICE, ci: env.ADMIN_TOKEN_CI },
 *   authAdmin: createAuthAdmin(auth, { features: { organization: false } }),
 * });
 * ```
 * @see ../../../../docs/admin-api.md
 */
export function createAuthAdmin(auth: AdminAuthSource, options?: AuthAdminOptions): AuthAdmin {
  const resolved = resolveAdminOptions(options);
  assertAdministrable(auth.options);
  let environment: Promise<AdminEnvironment> | undefined;
  const environmentOnce = () => {
    environment ??= adminEnvironment(auth, resolved).catch((error: unknown) => {
      environment = undefined;
      throw error;
    });
    return environment;
  };
  return {
    ...(options?.dashboard === false ? {} : { dashboard: options?.dashboard ?? dashboardAssets }),
    async handle(request, { path, operator }) {
      let environment: AdminEnvironment;
      try {
        environment = await environmentOnce();
      } catch (error) {
        return problemResponse(error, { request });
      }
      // Reads go to a D1 replica where Cloudflare has them, never older than the client's bookmark.
      const session = adminReadSession(environment.binding, request);
      try {
        const answer = await server.handle(request, {
          path,
          ctx: { environment: { ...environment, db: session.db }, operator },
        });
        const bookmark = await session.bookmark();
        if (bookmark === null) return answer;
        const response = new Response(answer.body, answer);
        response.headers.set(D1_BOOKMARK_HEADER, bookmark);
        return response;
      } finally {
        // A ban, a revoke, an ended impersonation: this isolate's cached identities check first.
        if (request.method !== "GET") expireRevocationViews(auth.options.database);
      }
    },
    async routes() {
      return publishedAuthRoutes(await environmentOnce());
    },
    async lookupIdentity(idOrEmail) {
      return lookupIdentity(await environmentOnce(), idOrEmail);
    },
    async recordDataAction(entry) {
      await recordDataAction(await environmentOnce(), entry);
    },
    async handleLink(request, { path }) {
      try {
        return await handleImpersonationLink(await environmentOnce(), request, path);
      } catch (error) {
        return problemResponse(error, { request });
      }
    },
  };
}

/**
 * The admin routes served: a route whose capability is off does not exist,
 * every action is audited (refused attempts too), better-auth's and D1's
 * errors become the codes they deserve.
 */
const server = serveRoutes(ADMIN_AUTH_IMPLEMENTATION, {
  capability: (name, { environment }: AdminContext) =>
    isCapabilityOn(environment.capabilities, name),
  audit: {
    open: ({ name, action, params, ctx }) => {
      const known = AUDIT_ACTIONS.find((candidate) => candidate === action);
      const target = AUDIT_TARGETS[name as keyof typeof AUDIT_TARGETS];
      if (known === undefined || target === undefined)
        throw new Error(`svc/auth admin: route ${name} declares an unknown audit action ${action}`);
      return new AuditScope(ctx.environment, ctx.operator, known, target(params));
    },
    close: (audit, error) => audit.finish(error),
  },
  mapError: toAdminError,
});
