import type { DatabaseReader, DatabaseWriter, DataModelFromRegister } from "../db/types.ts";
import type { ProcedureKind, RunnableReference } from "./references.ts";

/**
 * Who is calling, as the configured `resolveIdentity` saw it. Plain data, so it
 * crosses into the shard intact. `userId` is the stable subject.
 */
export interface Identity {
  userId: string;
  [claim: string]: unknown;
}

/**
 * Who a call runs as: a signed-in `user`, an `anonymous` caller, or the app's
 * own `service` (a cron job or a queue consumer, never a client). Policies
 * tell the three apart with `ctx.auth.kind`.
 */
export type CallerKind = "user" | "anonymous" | "service";

/** `ctx.auth`: the caller's identity, the same over every entry point. */
export interface AuthContext {
  /** `user`, `anonymous` or `service`; see {@link CallerKind}. */
  readonly kind: CallerKind;
  /** The caller's user id, or `null` for anonymous and service calls. */
  readonly userId: string | null;
  /**
   * For service calls, what runs: `cron:<job>` or `queue:<queue>`; `null`
   * otherwise. Logged with failures and visible to policies.
   */
  readonly service: string | null;
  /** The full identity (session and user fields), or `null`. */
  getIdentity(): Promise<Identity | null>;
}

/**
 * Which door a call came through: `rpc`, `rest`, an `http` action, a `ws`
 * subscription, a `cron` job, a `queue` consumer, `admin` (an operator's
 * data-studio read, edit or run), or `internal` (`ctx.run*` from another
 * procedure).
 */
export type Transport = "rpc" | "rest" | "http" | "ws" | "cron" | "queue" | "admin" | "internal";

/**
 * Builds `ctx.auth` for a call: a service name makes it a service call (no
 * user, whatever identity came along), else the identity decides.
 *
 * @example authContext({ userId: "u1" }, null).kind // "user"
 */
export function authContext(identity: Identity | null, service: string | null): AuthContext {
  if (service !== null) {
    return { kind: "service", userId: null, service, getIdentity: async () => null };
  }
  return {
    kind: identity === null ? "anonymous" : "user",
    userId: identity?.userId ?? null,
    service: null,
    getIdentity: async () => identity,
  };
}

/**
 * `ctx.meta`: facts about this call, plus room for middleware to leave data for
 * later middleware and the handler (`ctx.meta.myKey = ...`).
 */
export interface CallMeta {
  /** `namespace:function`, e.g. `messages:list`. */
  readonly path: string;
  readonly kind: ProcedureKind;
  readonly transport: Transport;
  /** The shard this call runs in (`default` when the caller named none). */
  readonly shardKey: string;
  /** A unique id for the outer request, shared by nested `ctx.run*` calls. */
  readonly requestId: string;
  /**
   * For a subscription (`transport: "ws"`): the upgrade request's `cookie`
   * and `authorization` headers, to pass to `ctx.authApi`. Absent otherwise.
   */
  readonly headers?: Readonly<Record<string, string>>;
  [key: string]: unknown;
}

/** Runs a query (public or internal) with the caller's identity, in this shard. */
export type RunQuery = <Args, Output>(
  ref: RunnableReference<"query", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;
/** Runs a mutation (public or internal); inside a mutation it joins its transaction. */
export type RunMutation = <Args, Output>(
  ref: RunnableReference<"mutation", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;
/** Runs an action (public or internal). */
export type RunAction = <Args, Output>(
  ref: RunnableReference<"action", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;

/** Arguments may be omitted when every field is optional. */
export type OptionalArgs<Args> = Record<string, never> extends Args ? [args?: Args] : [args: Args];

/** What every procedure and middleware sees. */
export interface BaseCtx<Args = unknown> {
  auth: AuthContext;
  meta: CallMeta;
  /** The validated arguments (middleware reads them here, e.g. a captcha token). */
  args: Args;
}

/** Context of a query (and of a stream): read-only database. */
export interface QueryCtx<Args = unknown, DM = DataModelFromRegister> extends BaseCtx<Args> {
  db: DatabaseReader<DM>;
  runQuery: RunQuery;
}

/** Context of a mutation: read-write database in one transaction. */
export interface MutationCtx<Args = unknown, DM = DataModelFromRegister> extends BaseCtx<Args> {
  db: DatabaseWriter<DM>;
  runQuery: RunQuery;
  runMutation: RunMutation;
}

/** Context of an action: no database; calls other procedures. */
export interface ActionCtx<Args = unknown> extends BaseCtx<Args> {
  runQuery: RunQuery;
  runMutation: RunMutation;
  runAction: RunAction;
}

/** The context type for a procedure kind. */
export type CtxForKind<Kind extends ProcedureKind, Args> = Kind extends "mutation"
  ? MutationCtx<Args>
  : Kind extends "action"
    ? ActionCtx<Args>
    : QueryCtx<Args>;
