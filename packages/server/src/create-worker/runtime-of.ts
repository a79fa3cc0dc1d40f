import { recordingPlan } from "../observability/plan.ts";
import { restRoutes } from "../rest/routes.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { resolveSocketLimits } from "../subscriptions/limits.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../worker/body.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import type { WorkerOptions } from "./options.ts";

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
    recording: recordingPlan(options.logs),
    socketLimits: resolveSocketLimits(options.socketLimits),
    socketRateLimit: options.socketRateLimit,
    apiKeyRateLimit: options.apiKeyRateLimit,
  };
}
