import type { CronJobs } from "../cron/jobs.ts";
import type { BackupsOptions } from "../data-admin/options.ts";
import type { HttpRouter } from "../http-actions/router.ts";
import type { ApiKeyRateLimitGate } from "../limits/api-key-rate-limit.ts";
import type { RestRateLimitGate } from "../limits/rate-limit-gate.ts";
import type { SocketLimits } from "../limits/socket-limits.ts";
import type { SocketRateLimitGate } from "../limits/socket-rate-limit.ts";
import type { LogsOptions } from "../observability/plan.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { QueueConsumers } from "../queue/consumers.ts";
import type { StorageOptions } from "../storage/options.ts";
import type { AdminTokenOption } from "../worker/admin-gate.ts";
import type { AuthAdminSurface } from "../worker/extensions.ts";
import type { IdentityResolver } from "../worker/invoke.ts";
import type { ShardAccessHook } from "../worker/shard-access.ts";

/**
 * Options of `createWorker`: what the app brings (its procedures, entry
 * points, identity and access hooks) and the limits it sets.
 *
 * @example
 * ```ts
 * const options: WorkerOptions<Env> = { shardDO: "SHARD", functions, resolveIdentity: sessionIdentity(auth) };
 * ```
 */
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
  /**
   * Rate limit of each API key, from `createApiKeyRateLimit`: every call a
   * key makes over RPC, REST or a socket spends from that key's bucket; a
   * limited key answers 429 with `Retry-After`. Opt-in (it needs the
   * limiter's Durable Object); wire it whenever API keys are on.
   * @see ../../../docs/rest.md
   */
  apiKeyRateLimit?: ApiKeyRateLimitGate;
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
  /**
   * File storage (docs/storage.md): the R2 bucket binding and the secret
   * that signs upload and download URLs, as given to `createShard`. The
   * routes under `/_svc/storage/` answer a configuration error while the
   * binding or secret is missing.
   * @default { bucket: "SVC_FILES", secret: "SVC_STORAGE_SECRET" }
   */
  storage?: StorageOptions;
}

/**
 * The exported handler `createWorker` returns.
 *
 * @example
 * ```ts
 * const svc: SvcWorker<Env> = createWorker({ shardDO: "SHARD", functions });
 * export default { fetch: svc.fetch, scheduled: svc.scheduled, queue: svc.queue };
 * ```
 */
export interface SvcWorker<Env> {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
  /** Runs the cron jobs whose schedule fired; never throws (failures are logged per job). */
  scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
  /** Consumes a batch with its queue's consumer; never throws (failures retry per message). */
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
}
