import { deserializeError } from "../errors/svc-error.ts";
import type { ProcedureKind, Transport } from "../model/call-meta.ts";
import type { Identity } from "../model/identity.ts";
import { checkShardKey, DEFAULT_SHARD } from "../model/shard-key.ts";
import { currentScope, requestIdOfCall } from "../observability/call-scope.ts";
import type { AnyProcedure, FunctionRegistry } from "../procedures/procedure.ts";
import { isProcedure } from "../procedures/procedure.ts";
import type { RunnableReference } from "../procedures/references.ts";
import type { ShardEndpoint } from "../shard/call.ts";

/** Where a call from server code runs. */
export interface ShardCallOptions {
  /** The shard to run in. @default "default" */
  shardKey?: string;
}

/** Runs a query (public or internal) in a shard, as the caller of the entry point. */
export type ServerRunQuery = <Args, Output>(
  ref: RunnableReference<"query", Args, Output>,
  args: Args,
  options?: ShardCallOptions,
) => Promise<Output>;
/** Runs a mutation (public or internal) in a shard: one transaction there. */
export type ServerRunMutation = <Args, Output>(
  ref: RunnableReference<"mutation", Args, Output>,
  args: Args,
  options?: ShardCallOptions,
) => Promise<Output>;
/** Runs an action (public or internal) in a shard. */
export type ServerRunAction = <Args, Output>(
  ref: RunnableReference<"action", Args, Output>,
  args: Args,
  options?: ShardCallOptions,
) => Promise<Output>;

/**
 * `ctx.runQuery / runMutation / runAction` of code that runs in the worker
 * (HTTP actions, cron jobs, queue consumers): each call names its shard.
 */
export interface ServerCalls {
  runQuery: ServerRunQuery;
  runMutation: ServerRunMutation;
  runAction: ServerRunAction;
}

/** Who the calls run as and where they come from. */
export interface ServerCallOrigin {
  identity: Identity | null;
  service: string | null;
  transport: Exclude<Transport, "internal" | "rpc" | "rest">;
  requestId: string;
}

/** What {@link serverCalls} needs from the worker. */
export interface ServerCallDeps {
  functions: FunctionRegistry;
  shard(shardKey: string): ShardEndpoint;
  timeoutMs: number;
}

/**
 * The registry path of a reference (`api.x.y`, `internal.x.y`) or of a
 * procedure value, checked to be one of `kinds`. A mismatch is the app's bug
 * and throws a plain error naming what was expected.
 *
 * @example targetPath(functions, internal.maintenance.sweep, ["mutation"]) // "maintenance:sweep"
 */
export function targetPath(
  functions: FunctionRegistry,
  ref: unknown,
  kinds: readonly ProcedureKind[],
  subject = "ctx.run*",
): string {
  let path: string | undefined;
  if (isProcedure(ref)) {
    path = Object.keys(functions).find((candidate) => functions[candidate] === ref);
    if (path === undefined)
      throw new Error(`svc: ${subject} was given a procedure that is not in the registry`);
  } else {
    const named = (ref as { path?: unknown } | null)?.path;
    path = typeof named === "string" && Object.hasOwn(functions, named) ? named : undefined;
    if (path === undefined)
      throw new Error(`svc: ${subject} was given an unknown reference ${JSON.stringify(named)}`);
  }
  const procedure = functions[path] as AnyProcedure;
  if (!kinds.includes(procedure.kind)) {
    throw new Error(
      `svc: ${subject} cannot run ${path}, which is a ${procedure.kind} (expected a ${kinds.join(" or ")})`,
    );
  }
  return path;
}

/**
 * Builds the shard-calling part of a worker-side context. Calls skip the
 * `shardAccess` hook (this is the app's own code, which chose the key) but
 * keep everything else: validation, middleware, RLS under `origin`'s
 * identity, and the procedure timeout.
 *
 * @example
 * ```ts
 * const calls = serverCalls(deps, { identity, service: null, transport: "http", requestId });
 * await calls.runQuery(api.messages.list, { channel: "general" }, { shardKey: "room-1" });
 * ```
 */
export function serverCalls(deps: ServerCallDeps, origin: ServerCallOrigin): ServerCalls {
  const run =
    (kind: ProcedureKind) =>
    (ref: unknown, args: unknown, options: ShardCallOptions = {}): Promise<unknown> =>
      callShard(deps, origin, targetPath(deps.functions, ref, [kind]), args, options.shardKey);
  return {
    runQuery: run("query") as ServerRunQuery,
    runMutation: run("mutation") as ServerRunMutation,
    runAction: run("action") as ServerRunAction,
  };
}

/** What a cron job or queue consumer runs, and as whom. */
export interface ServiceRun {
  /** `cron:<job>` or `queue:<name>`. */
  service: string;
  transport: "cron" | "queue";
  target: unknown;
  /** The kinds the target may be, and how errors name it (`cron job sweep`). */
  kinds: readonly ProcedureKind[];
  subject: string;
  args: unknown;
  shardKey: string;
}

/**
 * Runs a cron job's or queue consumer's target in its shard as the service
 * identity, whatever kind of procedure it is (one of `run.kinds`).
 *
 * @example
 * ```ts
 * await runAsService(deps, { service: "cron:sweep", transport: "cron", target: internal.maintenance.sweep,
 *   kinds: ["mutation"], subject: "cron job sweep", args: {}, shardKey: "default" });
 * ```
 */
export function runAsService(deps: ServerCallDeps, run: ServiceRun): Promise<unknown> {
  const path = targetPath(deps.functions, run.target, run.kinds, run.subject);
  const origin: ServerCallOrigin = {
    identity: null,
    service: run.service,
    transport: run.transport,
    requestId: requestIdOfCall(null),
  };
  return callShard(deps, origin, path, run.args, run.shardKey);
}

/** One call from worker code into a shard, with the procedure timeout. */
async function callShard(
  deps: ServerCallDeps,
  origin: ServerCallOrigin,
  path: string,
  args: unknown,
  key: string | undefined,
): Promise<unknown> {
  const shardKey = checkShardKey(key ?? DEFAULT_SHARD);
  // Found once, before the call: each lookup reads the await chain's stack.
  const scope = currentScope();
  const result = await deps.shard(shardKey).call({
    path,
    args,
    shardKey,
    ...origin,
    record: scope !== undefined,
    fromServer: true,
    timeoutMs: deps.timeoutMs,
  });
  scope?.absorb(result.observed);
  if (!result.ok) throw deserializeError(result.error);
  return result.value;
}
