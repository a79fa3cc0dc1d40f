import type { BetterAuthDBSchema, BetterAuthOptions, User } from "better-auth";
import { isD1Like } from "../database.ts";
import { SvcAuthError } from "../errors.ts";
import { type Capabilities, capabilitiesOf } from "./capabilities.ts";
import type { ImpersonationOptions, ResolvedAdminOptions } from "./options.ts";
import {
  type OrganizationSettings,
  organizationSettingsOf,
  ownerRoleOf,
  type RoleSettings,
  roleSettingsOf,
} from "./plugin-settings.ts";
import type { AdminDatabase } from "./read-session.ts";
import { SVC_ADMIN_PLUGIN_ID } from "./schema-plugin.ts";
import { signInLinksOf } from "./sign-in-link-kinds.ts";
import { SqlNames } from "./sql-names.ts";
import { USER_ACTIVITY_TABLE } from "./user-activity.ts";
import { editableUserFields } from "./users/editable-fields.ts";

/**
 * The part of better-auth's context (`await auth.$context`) the admin surface
 * uses: the resolved schema, id generation, the password hasher, the secret
 * and cookie name (to sign an impersonation cookie), and the internal
 * adapter's session calls.
 */
export interface AdminAuthContext {
  options: BetterAuthOptions;
  tables: BetterAuthDBSchema;
  secret: string;
  generateId(options: { model: string }): string | false;
  authCookies: {
    sessionToken: SessionCookie;
    sessionData: SessionCookie;
    dontRememberToken: SessionCookie;
  };
  password: {
    hash(password: string): Promise<string>;
    config: { minPasswordLength: number; maxPasswordLength: number };
  };
  internalAdapter: {
    createSession(
      userId: string,
      dontRememberMe?: boolean,
      override?: Record<string, unknown>,
      overrideAll?: boolean,
    ): Promise<{ id: string; token: string }>;
    deleteSession(token: string): Promise<void>;
    findUserById(userId: string): Promise<User | null>;
    findUserByEmail(email: string): Promise<{ user: User } | null>;
  };
}

/** One of better-auth's cookies: its name (with any `__Secure-` prefix) and attributes. */
export interface SessionCookie {
  name: string;
  attributes: {
    secure?: boolean;
    sameSite?: string;
    path?: string;
    domain?: string;
    httpOnly?: boolean;
  };
}

/** The part of an auth instance `createAuthAdmin` uses (an auth from `createAuth`). */
export interface AdminAuthSource {
  options: BetterAuthOptions;
  $context: PromiseLike<AdminAuthContext>;
  api: object;
}

/** Everything an admin route needs, resolved once per auth instance. */
export interface AdminEnvironment {
  /**
   * What this request's statements go to: the D1 binding, or a D1 Sessions
   * API session over it (read replicas, see `read-session.ts`).
   */
  db: AdminDatabase;
  /** The D1 binding better-auth writes to (the primary): the key of per-database caches. */
  binding: D1Database;
  /** Physical table / column names of the schema. */
  names: SqlNames;
  /** better-auth's context: internal adapter, password hashing, id generation, cookies. */
  auth: AdminAuthContext;
  /** better-auth's server API (`auth.api`), for the endpoints that must run as endpoints. */
  api: object;
  capabilities: Capabilities;
  /** The admin plugin's roles; `null` without the plugin. */
  roles: RoleSettings | null;
  /** The organization owner role; `null` without the organization plugin (whatever `features` says). */
  ownerRole: string | null;
  /** The organization plugin's roles and invitation settings; `null` without the plugin. */
  organizations: OrganizationSettings | null;
  /** Whether email + password sign-in is enabled. */
  emailAndPassword: boolean;
  impersonation: Required<ImpersonationOptions>;
  /** How far list totals are counted exactly (`createAuthAdmin` option `totals`). */
  totals: { exactUpTo: number };
  /**
   * Whether the database has svc's user activity table (`svc_user_activity`),
   * read once with the environment: without it (a checked-in migration not
   * yet regenerated) users read as never signed in and the activity sorts
   * are refused.
   */
  userActivity: boolean;
}

/**
 * Refuses, at `createAuthAdmin`, an auth the admin surface cannot serve: one
 * not on D1, one without svc's schema plugin (built with `betterAuth` instead
 * of `createAuth`), or one keeping sessions in `secondaryStorage` (revoking
 * them in D1 alone would leave them valid).
 *
 * @throws {SvcAuthError} `AUTH_ADMIN_UNSUPPORTED`, `AUTH_ADMIN_SCHEMA_MISSING`
 * @example
 * ```ts
 * assertAdministrable(auth.options);
 * ```
 */
export function assertAdministrable(options: BetterAuthOptions): void {
  if (!isD1Like(options.database)) {
    throw new SvcAuthError(
      "AUTH_ADMIN_UNSUPPORTED",
      "createAuthAdmin needs an auth on D1: createAuth({ database: svcDatabaseAdapter(env.DB), … }).",
    );
  }
  if (!(options.plugins ?? []).some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID)) {
    throw new SvcAuthError(
      "AUTH_ADMIN_SCHEMA_MISSING",
      "createAuthAdmin needs an auth built with createAuth from @svc/auth (it adds the admin audit table); " +
        "this one was built with betterAuth directly.",
    );
  }
  const baseURL: unknown = options.baseURL;
  if (
    typeof baseURL === "object" &&
    baseURL !== null &&
    !("fallback" in baseURL && baseURL.fallback)
  ) {
    // Creating a user calls better-auth as the trusted server, without a
    // request; a dynamic baseURL then has nothing to resolve from.
    throw new SvcAuthError(
      "AUTH_ADMIN_UNSUPPORTED",
      "createAuthAdmin needs a baseURL it can resolve without a request: with a dynamic baseURL " +
        "({ allowedHosts }), add `fallback` (e.g. your public origin).",
    );
  }
  if (options.secondaryStorage !== undefined) {
    throw new SvcAuthError(
      "AUTH_ADMIN_UNSUPPORTED",
      "createAuthAdmin keeps sessions in D1 and cannot revoke sessions held in secondaryStorage; " +
        "remove secondaryStorage from the auth options to use the admin surface.",
    );
  }
}

/**
 * Builds the {@link AdminEnvironment} from better-auth's context: the enabled
 * plugin set comes from `(await auth.$context).options.plugins`.
 *
 * @example
 * ```ts
 * const environment = await adminEnvironment(auth, resolveAdminOptions(options));
 * ```
 */
export async function adminEnvironment(
  source: AdminAuthSource,
  options: ResolvedAdminOptions,
): Promise<AdminEnvironment> {
  const auth = await source.$context;
  const plugins = auth.options.plugins ?? [];
  const adminPlugin = plugins.find((plugin) => plugin.id === "admin");
  const organizationPlugin = plugins.find((plugin) => plugin.id === "organization");
  const roles = adminPlugin ? roleSettingsOf(adminPlugin) : null;
  const database = auth.options.database;
  if (!isD1Like(database)) throw new Error("svc/auth admin: the auth database is not D1");
  const activityTable = await database
    .prepare("SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = ?")
    .bind(USER_ACTIVITY_TABLE)
    .first();
  return {
    db: database,
    binding: database,
    names: new SqlNames(auth.tables),
    auth,
    api: source.api,
    capabilities: capabilitiesOf(
      plugins,
      options.features,
      roles?.assignable ?? [],
      {
        min: auth.password.config.minPasswordLength,
        max: auth.password.config.maxPasswordLength,
      },
      editableUserFields(auth.tables, plugins),
      signInLinksOf(auth.options),
    ),
    roles,
    ownerRole: organizationPlugin ? ownerRoleOf(organizationPlugin) : null,
    organizations: organizationPlugin ? organizationSettingsOf(organizationPlugin) : null,
    emailAndPassword: auth.options.emailAndPassword?.enabled === true,
    impersonation: options.impersonation,
    totals: options.totals,
    userActivity: activityTable !== null,
  };
}
