import { env } from "cloudflare:workers";
import { DEFAULT_MAX_BODY_BYTES } from "../http/body.ts";
import { resolveSocketLimits } from "../limits/socket-limits.ts";
import { keptIdStub } from "../model/endpoint-stub.ts";
import { recordingPlan } from "../observability/plan.ts";
import { restRoutes } from "../procedures/rest-routes.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { registerSocketAuthority } from "../subscriptions/socket-authority.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import { EVERY_SHARD } from "../worker/shard-access.ts";
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
  const runtime: Omit<WorkerRuntime<Env>, "socketAuthority"> = {
    functions: options.functions,
    restRoutes: restRoutes(options.functions),
    restRateLimit: options.restRateLimit,
    rpcRateLimit: options.rpcRateLimit,
    namespace,
    shard: (env, shardKey) => keptIdStub<ShardEndpoint>(namespace(env), shardKey),
    resolveIdentity: options.resolveIdentity ?? (() => null),
    shardAccess: options.shardAccess ?? EVERY_SHARD,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    procedureTimeoutMs: options.procedureTimeoutMs ?? DEFAULT_PROCEDURE_TIMEOUT_MS,
    subscriptionReauthSeconds:
      options.subscriptionReauthSeconds ?? DEFAULT_SUBSCRIPTION_REAUTH_SECONDS,
    recording: recordingPlan(options.logs),
    socketLimits: resolveSocketLimits(options.socketLimits),
    socketRateLimit: options.socketRateLimit,
    apiKeyRateLimit: options.apiKeyRateLimit,
  };
  // A shard re-checks a socket's credential, and spends its key's bucket, through the worker's
  // own resolver and gate: the same decisions RPC and REST get.
  const socketAuthority = registerSocketAuthority({
    resolve: async (headers) =>
      runtime.resolveIdentity(new Request(SOCKET_RECHECK_URL, { headers }), env as Env),
    spend: async (apiKey, path) => {
      await runtime.apiKeyRateLimit?.check(apiKey, path);
    },
  });
  return { ...runtime, socketAuthority };
}

/** The URL of the request a socket's credential is resolved from again (its path is the socket route's). */
const SOCKET_RECHECK_URL = "https://svc.invalid/_svc/ws";
