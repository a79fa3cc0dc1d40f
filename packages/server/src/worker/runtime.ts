import type { AnyProcedure, FunctionRegistry } from "../procedures/procedure.ts";
import type { RestRateLimitGate } from "../rest/rate-limit-gate.ts";
import { type RestRoute, restRoutes } from "../rest/routes.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { type ResolvedSocketLimits, resolveSocketLimits } from "../subscriptions/limits.ts";
import type { SocketRateLimitGate } from "../subscriptions/socket-rate-limit.ts";
import type { ApiKeyRateLimitGate } from "./api-key-rate-limit.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./body.ts";
import type { IdentityResolver } from "./invoke.ts";
import type { WorkerOptions } from "./options.ts";
import type { ShardAccessHook } from "./shard-access.ts";

/**
 * What every route of a worker shares, fixed when `createWorker` is called.
 *
 * @example const runtime = workerRuntime(options); runtime.shard(env, "default");
 */
export interface WorkerRuntime<Env> {
  functions: FunctionRegistry;
  /** REST routes by path, computed once from `functions`. */
  restRoutes: ReadonlyMap<string, RestRoute & { path: string; procedure: AnyProcedure }>;
  restRateLimit: RestRateLimitGate | undefined;
  /** The same kind of gate over `POST /_svc/rpc`, with its own rates; opt-in. */
  rpcRateLimit: RestRateLimitGate | undefined;
  /** The shard Durable Object namespace of an `env`. */
  namespace(env: Env): DurableObjectNamespace;
  /** The shard stub for a shard key. */
  shard(env: Env, shardKey: string): ShardEndpoint;
  resolveIdentity: IdentityResolver<Env>;
  /** Decides, before the shard is touched, whether the caller may use the key. */
  shardAccess: ShardAccessHook<Env>;
  maxBodyBytes: number;
  /** How long a call may take in its shard. */
  procedureTimeoutMs: number;
  /** How long a subscription socket's identity counts before the client must reconnect. */
  subscriptionReauthSeconds: number;
  /** Bounds each shard enforces on the sockets it holds (always on). */
  socketLimits: ResolvedSocketLimits;
  /** Store-backed socket counts per address and user across shards; opt-in. */
  socketRateLimit: SocketRateLimitGate | undefined;
  /** Each API key's own bucket; opt-in. */
  apiKeyRateLimit: ApiKeyRateLimitGate | undefined;
}

const DEFAULT_PROCEDURE_TIMEOUT_MS = 30_000;
const DEFAULT_SUBSCRIPTION_REAUTH_SECONDS = 60;

/**
 * The {@link WorkerRuntime} of checked options, defaults filled in.
 *
 * @example const runtime = workerRuntime({ shardDO: "SHARD", functions });
 */
export function workerRuntime<Env>(options: WorkerOptions<Env>): WorkerRuntime<Env> {
  const namespace = (env: Env): DurableObjectNamespace => {
    if (typeof options.shardDO !== "string") return options.shardDO;
    const binding = (env as Record<string, unknown> | undefined)?.[options.shardDO];
    if (binding === undefined)
      throw new Error(`svc: env has no binding named ${options.shardDO} (shardDO)`);
    return binding as DurableObjectNamespace;
  };
  return {
    functions: options.functions,
    restRoutes: restRoutes(options.functions),
    restRateLimit: options.restRateLimit,
    rpcRateLimit: options.rpcRateLimit,
    namespace,
    shard: (env, shardKey) => namespace(env).getByName(shardKey) as unknown as ShardEndpoint,
    resolveIdentity: options.resolveIdentity ?? (() => null),
    shardAccess: options.shardAccess ?? (() => true),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    procedureTimeoutMs: options.procedureTimeoutMs ?? DEFAULT_PROCEDURE_TIMEOUT_MS,
    subscriptionReauthSeconds:
      options.subscriptionReauthSeconds ?? DEFAULT_SUBSCRIPTION_REAUTH_SECONDS,
    socketLimits: resolveSocketLimits(options.socketLimits),
    socketRateLimit: options.socketRateLimit,
    apiKeyRateLimit: options.apiKeyRateLimit,
  };
}
