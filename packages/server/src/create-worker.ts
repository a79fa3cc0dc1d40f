import { type CronJobs, isCronJobs } from "./cron/jobs.ts";
import { CRON_KINDS, runCronJobs } from "./cron/run.ts";
import { dataAuditSink } from "./data-admin/audit.ts";
import type { BackupsOptions, DataAdminDeps } from "./data-admin/options.ts";
import { backupsOptionOf, startBackupRuns } from "./data-admin/scheduled-backups.ts";
import { DATA_ADMIN_PREFIX, handleDataAdmin } from "./data-admin/serve.ts";
import { problemResponse } from "./errors/problem.ts";
import { SvcError } from "./errors/svc-error.ts";
import { handleHttpAction } from "./http-actions/handle.ts";
import { type HttpRouter, isHttpRouter } from "./http-actions/router.ts";
import { handleLogsAdmin, isLogsAdminPath } from "./observability/admin/routes.ts";
import { adminRouteOf } from "./observability/admin-route-name.ts";
import { noteCall } from "./observability/call-scope.ts";
import { type LogsOptions, recordingPlan } from "./observability/plan.ts";
import { CallRecorder, type RecordRun } from "./observability/recorder.ts";
import type { FunctionRegistry } from "./procedures/procedure.ts";
import { isProcedure } from "./procedures/procedure.ts";
import { isProcedurePath } from "./procedures/references.ts";
import { CONSUMER_KINDS, consumeBatch } from "./queue/consume.ts";
import { isQueueConsumers, type QueueConsumers } from "./queue/consumers.ts";
import type { RestRateLimitGate } from "./rest/rate-limit-gate.ts";
import { handleRest } from "./rest/rest-route.ts";
import { REST_PREFIX, restRoutes } from "./rest/routes.ts";
import type { ShardEndpoint } from "./shard/call.ts";
import { resolveSocketLimits, type SocketLimits } from "./subscriptions/limits.ts";
import { SUBSCRIPTION_PATH } from "./subscriptions/protocol.ts";
import { handleSubscribe } from "./subscriptions/route.ts";
import type { SocketRateLimitGate } from "./subscriptions/socket-rate-limit.ts";
import { type AdminTokenOption, createAdminGate } from "./worker/admin-gate.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./worker/body.ts";
import { DASHBOARD_PREFIX, serveDashboard } from "./worker/dashboard-route.ts";
import type { AuthAdminSurface } from "./worker/extensions.ts";
import { DEFAULT_MAX_HEADER_BYTES, refuseHugeHeaders } from "./worker/header-size.ts";
import type { IdentityResolver } from "./worker/invoke.ts";
import { jsonResponse } from "./worker/responses.ts";
import { handleRpc, RPC_PATH } from "./worker/rpc-route.ts";
import type { WorkerRuntime } from "./worker/runtime.ts";
import { targetPath } from "./worker/server-calls.ts";
import type { ShardAccessHook } from "./worker/shard-access.ts";

/** Options of {@link createWorker}. */
export interface WorkerOptions<Env = unknown> {
  /** The shard Durable Object namespace, or the name of its binding in `env`. */
  shardDO: DurableObjectNamespace | string;
  /** The app's procedures by path: `functions` from `svc/_generated/functions.ts`. */
  functions: FunctionRegistry;
  /** Turns a request into the caller's identity (e.g. `@svc/auth`'s session resolver). Default: anonymous. */
  resolveIdentity?: IdentityResolver<Env>;
  /**
   * Decides from the identity and the shard key whether a call may reach its
   * shard, before the Durable Object is touched; a refusal answers exactly as
   * an unknown procedure does. Without it every key is open to every caller:
   * shards are not a tenant boundary until this hook makes them one.
   * @default every key allowed
   * @see ../../../docs/procedures.md
   */
  shardAccess?: ShardAccessHook<Env>;
  /**
   * Secret(s) gating every `/_svc/admin/*` route (`SVC_ADMIN_TOKEN`), at least
   * 32 characters each. Without it the admin surface answers 401 to everyone.
   */
  adminToken?: AdminTokenOption;
  /**
   * The app's HTTP actions (`http` from `svc/_generated/functions.ts`, the
   * default export of `svc/http.ts`), served for paths outside `/_svc/`
   * before `fetch`.
   */
  http?: HttpRouter;
  /** The app's cron jobs (`crons` from `svc/_generated/functions.ts`), run by `scheduled`. */
  crons?: CronJobs;
  /** The app's queue consumers (`queues` from `svc/_generated/functions.ts`), run by `queue`. */
  queues?: QueueConsumers;
  /** The app's own handler for every path outside `/_svc/` no HTTP action matched. Default: 404. */
  fetch?: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
  /** Largest accepted request body in bytes. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /** Largest accepted total of request header names and values on `/_svc/*`. @default 65536 */
  maxHeaderBytes?: number;
  /**
   * How long a call may run in its shard before the caller gets
   * `503 UNAVAILABLE` (the shard may still finish it). @default 30000
   */
  procedureTimeoutMs?: number;
  /**
   * How long a subscription socket's identity counts: after it the shard
   * closes the socket (code 4001) and the client reconnects, so sign-out,
   * session revocation and bans end a socket's authority within this bound.
   * @default 60
   */
  subscriptionReauthSeconds?: number;
  /**
   * Bounds of subscription sockets, enforced by each shard with no store and
   * on whatever is passed: sockets per address and per user on a shard,
   * frames per socket per second (a flood closes the socket with 4029).
   * @default { perIp: 100, perUser: 20, framesPerSecond: 20, frameBurst: 120 }
   * @see ../../../docs/subscriptions.md
   */
  socketLimits?: SocketLimits;
  /**
   * Store-backed limit on subscription socket opens per address and per user
   * across all shards, from `createSocketRateLimit`. Opt-in (it needs the
   * limiter's Durable Object); refused upgrades answer 429.
   */
  socketRateLimit?: SocketRateLimitGate;
  /** Rate limit of the public REST surface, from `createRestRateLimit`. RPC is never limited by it. */
  restRateLimit?: RestRateLimitGate;
  /**
   * Rate limit of `POST /_svc/rpc`: the same gate (`createRestRateLimit`) over
   * its own named rate, its key function given the procedure path. Opt-in,
   * as the specification keeps the REST gate off RPC.
   * @see ../../../docs/ratelimit.md
   */
  rpcRateLimit?: RestRateLimitGate;
  /** The admin surface (`createAuthAdmin(auth)` from `@svc/auth`), under `/_svc/admin/auth/`; also turns on the dashboard. */
  authAdmin?: AuthAdminSurface;
  /** The generated OpenAPI document (`openApiSpec` from `svc/_generated/openapi.ts`), served at `GET /_svc/admin/openapi`. */
  openApiSpec?: object;
  /**
   * Call records: one per call from every entry point, as a JSON line on the
   * console and, when the `SVC_LOGS` log store is bound, stored for the
   * admin API and the dashboard. `false` turns recording off.
   * @default { console: true, store: "SVC_LOGS", partitions: 4 }
   * @see ../../../docs/observability.md
   */
  logs?: LogsOptions | false;
  /**
   * Scheduled backups of every shard to an R2 bucket (docs/data-lifecycle.md):
   * `{ bucket: "BACKUPS", schedule: "0 3 * * *", keep: 7 }`. Also turns on the
   * admin routes that list, take and restore backups.
   */
  backups?: BackupsOptions;
}

/** The exported handler `createWorker` returns. */
export interface SvcWorker<Env> {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
  /** Runs the cron jobs whose schedule fired; never throws (failures are logged per job). */
  scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
  /** Consumes a batch with its queue's consumer; never throws (failures retry per message). */
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
}

const RESERVED_PREFIX = "/_svc/";
const DEFAULT_PROCEDURE_TIMEOUT_MS = 30_000;
const ADMIN_PREFIX = "/_svc/admin/";
const OPENAPI_PATH = "/_svc/admin/openapi";
const AUTH_ADMIN_PREFIX = "/_svc/admin/auth/";
/** One-time links of the admin surface: the code in the path is the credential, not the admin token. */
const AUTH_LINK_PREFIX = "/_svc/admin/auth/link/";

/** Admin answers carry personal data and, once, a live token: never cached. */
function noStore(response: Response): Response {
  if (response.headers.get("cache-control") === "no-store") return response;
  const copy = new Response(response.body, response);
  copy.headers.set("cache-control", "no-store");
  return copy;
}

function serveOpenApi(request: Request, document: object): Response {
  if (request.method !== "GET") {
    throw new SvcError("METHOD_NOT_ALLOWED", "GET only.", { headers: { allow: "GET" } });
  }
  return jsonResponse(document);
}

const REMOVED_OPTIONS: Record<string, string> = {
  authIntrospector:
    "the authIntrospector option was removed; pass createAuthAdmin(auth) as authAdmin instead",
};

function checkOptions(options: WorkerOptions<never>): void {
  for (const [name, message] of Object.entries(REMOVED_OPTIONS)) {
    if (name in options) throw new Error(`svc: ${message}`);
  }
  if (options.shardDO === undefined || options.shardDO === null) {
    throw new Error(
      "svc: createWorker needs shardDO (the shard Durable Object binding or its name)",
    );
  }
  if (typeof options.functions !== "object" || options.functions === null) {
    throw new Error(
      "svc: createWorker needs functions (the registry from svc/_generated/functions.ts)",
    );
  }
  for (const [path, procedure] of Object.entries(options.functions)) {
    if (!isProcedurePath(path))
      throw new Error(
        `svc: ${JSON.stringify(path)} is not a valid procedure path (namespace:function)`,
      );
    if (!isProcedure(procedure))
      throw new Error(`svc: functions[${JSON.stringify(path)}] is not a procedure`);
  }
  if (options.http !== undefined && !isHttpRouter(options.http))
    throw new Error("svc: http must be the router from svc/http.ts (httpRouter())");
  if (options.crons !== undefined && !isCronJobs(options.crons))
    throw new Error("svc: crons must be the job list from svc/crons.ts (cronJobs())");
  if (options.queues !== undefined && !isQueueConsumers(options.queues))
    throw new Error("svc: queues must be the consumer list from svc/queues.ts (queueConsumers())");
  // Targets are checked against the registry now, so a wrong one fails at start, not at 3 a.m.
  for (const job of options.crons?.jobs ?? []) {
    targetPath(options.functions, job.target, CRON_KINDS, `cron job ${job.name}`);
  }
  for (const { definition, options: consumer } of options.queues?.consumers ?? []) {
    targetPath(options.functions, consumer.run, CONSUMER_KINDS, `consumer of ${definition.queue}`);
  }
  for (const name of ["restRateLimit", "rpcRateLimit"] as const) {
    if (options[name] !== undefined && typeof options[name]?.check !== "function")
      throw new Error(`svc: ${name} must be a gate from createRestRateLimit(limiter, { name })`);
  }
  if (
    options.socketRateLimit !== undefined &&
    typeof options.socketRateLimit?.admitAddress !== "function"
  )
    throw new Error("svc: socketRateLimit must be the gate from createSocketRateLimit(limiter, …)");
  if (options.authAdmin !== undefined && typeof options.authAdmin?.handle !== "function") {
    throw new Error("svc: authAdmin must be the result of createAuthAdmin(auth) from @svc/auth");
  }
  for (const name of [
    "maxBodyBytes",
    "maxHeaderBytes",
    "procedureTimeoutMs",
    "subscriptionReauthSeconds",
  ] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new Error(`svc: ${name} must be a positive integer`);
    }
  }
}

/**
 * Builds the worker's handlers. `fetch`: RPC at `POST /_svc/rpc`, REST at
 * `/_svc/rest/*`, live queries at `GET /_svc/ws` (WebSocket), the admin-token gated `/_svc/admin/*` (but for the one-time links of `/_svc/admin/auth/link/*`, whose code is their credential), every other `/_svc/*`
 * path reserved (unknown ones 404), then the app's HTTP actions, then
 * `options.fetch`. `scheduled` runs the cron jobs and `queue` the queue
 * consumers, both as the service identity. Configuration mistakes throw here,
 * before anything is served.
 *
 * @example
 * ```ts
 * import { crons, functions, http, queues } from "../svc/_generated/functions.ts";
 * export default createWorker({ shardDO: "SHARD", functions, http, crons, queues });
 * ```
 */
export function createWorker<Env = unknown>(options: WorkerOptions<Env>): SvcWorker<Env> {
  checkOptions(options as WorkerOptions<never>);
  const adminGate = createAdminGate(options.adminToken);
  const recording = recordingPlan(options.logs);
  const recorder = recording === null ? undefined : new CallRecorder(recording);
  const backups = backupsOptionOf(options.backups);
  const namespaceOf = (env: Env): DurableObjectNamespace => {
    if (typeof options.shardDO !== "string") return options.shardDO;
    const binding = (env as Record<string, unknown> | undefined)?.[options.shardDO];
    if (binding === undefined)
      throw new Error(`svc: env has no binding named ${options.shardDO} (shardDO)`);
    return binding as DurableObjectNamespace;
  };
  const runtime: WorkerRuntime<Env> = {
    functions: options.functions,
    restRoutes: restRoutes(options.functions),
    restRateLimit: options.restRateLimit,
    rpcRateLimit: options.rpcRateLimit,
    shard: (env, shardKey) => {
      const namespace = namespaceOf(env);
      return namespace.getByName(shardKey) as unknown as ShardEndpoint;
    },
    resolveIdentity: options.resolveIdentity ?? (() => null),
    shardAccess: options.shardAccess ?? (() => true),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    procedureTimeoutMs: options.procedureTimeoutMs ?? DEFAULT_PROCEDURE_TIMEOUT_MS,
    subscriptionReauthSeconds: options.subscriptionReauthSeconds ?? 60,
    recording,
    socketLimits: resolveSocketLimits(options.socketLimits),
    socketRateLimit: options.socketRateLimit,
  };

  const logsDeps = {
    plan: recording,
    functions: options.functions,
    crons: options.crons,
    queues: options.queues,
  };

  const dataAdmin: DataAdminDeps = {
    namespace: (env) => namespaceOf(env as Env),
    backups,
    audit: dataAuditSink(options.authAdmin?.recordDataAction?.bind(options.authAdmin)),
    studio: {
      functions: options.functions,
      lookupIdentity: options.authAdmin?.lookupIdentity?.bind(options.authAdmin),
      timeoutMs: runtime.procedureTimeoutMs,
    },
  };

  const maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  const route = async (request: Request, env: Env, url: URL): Promise<Response> => {
    refuseHugeHeaders(request, maxHeaderBytes);
    const path = url.pathname;
    if (path === RPC_PATH) return handleRpc(request, env, url, runtime);
    if (path === SUBSCRIPTION_PATH) return handleSubscribe(request, env, url, runtime);
    if (path.startsWith(REST_PREFIX)) return handleRest(request, env, url, runtime);
    // Reads of the call records themselves are not calls worth a record (a live tail would log itself).
    if (path.startsWith(ADMIN_PREFIX) && !isLogsAdminPath(path)) {
      noteCall({ entry: "admin", route: adminRouteOf(request.method, path) });
    }
    if (path.startsWith(AUTH_LINK_PREFIX) && options.authAdmin?.handleLink !== undefined) {
      return noStore(
        await options.authAdmin.handleLink(request, { path: path.slice(AUTH_LINK_PREFIX.length) }),
      );
    }
    if (path.startsWith(ADMIN_PREFIX)) {
      const operator = await adminGate(request);
      noteCall({ caller: { kind: "operator", id: operator } });
      if (isLogsAdminPath(path)) return handleLogsAdmin(request, url, env, logsDeps);
      if (path === OPENAPI_PATH && options.openApiSpec !== undefined) {
        return serveOpenApi(request, options.openApiSpec);
      }
      if (path.startsWith(DATA_ADMIN_PREFIX)) {
        const rest = path.slice(DATA_ADMIN_PREFIX.length);
        const ctx = { env, operator, deps: dataAdmin };
        return noStore(await handleDataAdmin(request, rest, ctx));
      }
      if (path.startsWith(AUTH_ADMIN_PREFIX) && options.authAdmin !== undefined) {
        const context = { path: path.slice(AUTH_ADMIN_PREFIX.length), operator };
        return noStore(await options.authAdmin.handle(request, context));
      }
    }
    const dashboard = options.authAdmin?.dashboard;
    if (
      dashboard !== undefined &&
      (path === "/_svc/dashboard" || path.startsWith(DASHBOARD_PREFIX))
    ) {
      return serveDashboard(request, url, dashboard);
    }
    throw new SvcError("NOT_FOUND", "Not found.");
  };

  const httpDeps =
    options.http === undefined
      ? undefined
      : {
          router: options.http,
          functions: options.functions,
          shard: runtime.shard,
          resolveIdentity: runtime.resolveIdentity,
          maxBodyBytes: runtime.maxBodyBytes,
          timeoutMs: runtime.procedureTimeoutMs,
        };
  const serverDeps = (env: Env) => ({
    functions: options.functions,
    shard: (shardKey: string) => runtime.shard(env, shardKey),
    timeoutMs: runtime.procedureTimeoutMs,
  });

  const recordRun = (env: Env, ctx: ExecutionContext): RecordRun | undefined =>
    recorder === undefined
      ? undefined
      : (facts, work) => recorder.service(facts, env, (promise) => ctx.waitUntil(promise), work);

  const serve = async (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(RESERVED_PREFIX)) {
      if (httpDeps !== undefined) {
        const answered = await handleHttpAction(httpDeps, request, env, url);
        if (answered !== undefined) return answered;
      }
      if (options.fetch) return options.fetch(request, env, ctx);
      return problemResponse(new SvcError("NOT_FOUND", "Not found."));
    }
    try {
      return await route(request, env, url);
    } catch (error) {
      return problemResponse(error);
    }
  };

  return {
    async scheduled(controller, env, ctx) {
      const fired = controller.cron.trim().split(/\s+/).join(" ");
      const backupsDue = backups !== undefined && fired === backups.schedule;
      if (backupsDue) await startBackupRuns(namespaceOf(env), backups, controller.scheduledTime);
      if (backupsDue && !options.crons?.jobs.some((job) => job.schedule === fired)) return;
      if (options.crons === undefined) {
        console.error(
          `svc: a cron trigger fired ("${controller.cron}") but createWorker has no crons`,
        );
        return;
      }
      const record = recordRun(env, ctx);
      await runCronJobs(
        { ...serverDeps(env), crons: options.crons, ...(record ? { record } : {}) },
        controller.cron,
      );
    },
    async queue(batch, env, ctx) {
      if (options.queues === undefined) {
        console.error(
          `svc: a batch of queue ${batch.queue} arrived but createWorker has no queues`,
        );
        batch.retryAll();
        return;
      }
      const record = recordRun(env, ctx);
      await consumeBatch(
        { ...serverDeps(env), queues: options.queues, ...(record ? { record } : {}) },
        batch,
      );
    },
    fetch(request, env, ctx) {
      if (recorder === undefined) return serve(request, env, ctx);
      return recorder.request(request, env, ctx, () => serve(request, env, ctx));
    },
  };
}
