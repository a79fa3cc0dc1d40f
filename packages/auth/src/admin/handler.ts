import type { RouteAnswer, RouteCall, RouteHandler } from "@svc/server/routes";
import type { AuditScope } from "./audit/trail.ts";
import type { AdminAuthRoutes } from "./contract/index.ts";
import type { AdminEnvironment } from "./environment.ts";

/** What every admin handler gets besides its input: the auth it administers and the operator. */
export interface AdminContext {
  environment: AdminEnvironment;
  /** The admin token's name, recorded in the audit trail. */
  operator: string;
}

/**
 * The handler of one admin route, typed from its declaration in
 * `contract/`: its `params`, `query` and `body` as declared, `ctx` and, for a
 * route with an audit action, its `audit` record.
 *
 * @example
 * ```ts
 * export const unbanUser: AdminHandler<"unbanUser"> = async ({ params, ctx, audit }) => ({ user });
 * ```
 */
export type AdminHandler<Name extends keyof AdminAuthRoutes> = RouteHandler<
  AdminAuthRoutes[Name],
  AdminContext,
  AuditScope
>;

/**
 * What the handler of the admin route `Name` gets (see {@link AdminHandler}).
 *
 * @example
 * ```ts
 * export async function banUser(call: AdminCall<"banUser">): Promise<AdminAnswer<"banUser">> { … }
 * ```
 */
export type AdminCall<Name extends keyof AdminAuthRoutes> = RouteCall<
  AdminAuthRoutes[Name],
  AdminContext,
  AuditScope
>;

/** What the handler of the admin route `Name` answers: its declared answer's type. */
export type AdminAnswer<Name extends keyof AdminAuthRoutes> = RouteAnswer<AdminAuthRoutes[Name]>;
