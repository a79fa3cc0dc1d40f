import type { ApiKeyRateLimitGate } from "../limits/api-key-rate-limit.ts";
import type { RestRateLimitGate } from "../limits/rate-limit-gate.ts";
import type { ResolvedSocketLimits } from "../limits/socket-limits.ts";
import type { SocketRateLimitGate } from "../limits/socket-rate-limit.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import type { AnyProcedure, FunctionRegistry } from "../procedures/procedure.ts";
import type { RoutedProcedure } from "../procedures/rest-routes.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import type { IdentityResolver } from "./invoke.ts";
import type { ShardAccessHook } from "./shard-access.ts";

/**
 * What every route of a worker shares, fixed when `createWorker` is called.
 *
 * Built by `createWorker` from its options (`create-worker/runtime-of.ts`);
 * every door reads it.
 *
 * @example const stub = runtime.shard(env, "default");
 */
export interface WorkerRuntime<Env> {
  functions: FunctionRegistry;
  /** REST routes by path, computed once from `functions`. */
  restRoutes: ReadonlyMap<string, RoutedProcedure<AnyProcedure>>;
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
  /** Where call records go (`createWorker({ logs })`), or `null` when recording is off. */
  recording: RecordingPlan | null;
  /** Bounds each shard enforces on the sockets it holds (always on). */
  socketLimits: ResolvedSocketLimits;
  /** Store-backed socket counts per address and user across shards; opt-in. */
  socketRateLimit: SocketRateLimitGate | undefined;
  /** Each API key's own bucket; opt-in. */
  apiKeyRateLimit: ApiKeyRateLimitGate | undefined;
  /** The number this worker's socket authority is registered under (see `SocketGrant.authority`). */
  socketAuthority: number;
}
