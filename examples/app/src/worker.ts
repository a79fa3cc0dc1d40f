import { env } from "cloudflare:workers";
import {
  apiKeyIdentity,
  createAuthAdmin,
  createAuthRateLimit,
  ensureMigrated,
  handleAuthRequest,
  sessionIdentity,
} from "@svc/auth";
import { createRateLimiter, MINUTE } from "@svc/ratelimit";
import {
  createApiKeyRateLimit,
  createLogStore,
  createRestRateLimit,
  createShard,
  createSocketRateLimit,
  createWorker,
  type ShardAccessHook,
} from "@svc/server";
import { otlpDrain, parseOtlpHeaders } from "@svc/server/otlp";
import { crons, functions, http, migrations, queues } from "../svc/_generated/functions.ts";
import { openApiSpec } from "../svc/_generated/openapi.ts";
import schema from "../svc/schema.ts";
import { auth } from "./auth.ts";

/** The standard OpenTelemetry exporter variables; set them to drain call records to a collector. */
interface OtlpEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  /** `http/protobuf` (default) or `http/json`. */
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  OTEL_SERVICE_NAME?: string;
}

/**
 * The call-record store (bound as SVC_LOGS): 7 days, 128 MiB per partition,
 * and an OTLP drain whenever OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export const LogStore = createLogStore<OtlpEnv>({
  drains: (vars) =>
    vars.OTEL_EXPORTER_OTLP_ENDPOINT
      ? [
          otlpDrain({
            endpoint: vars.OTEL_EXPORTER_OTLP_ENDPOINT,
            headers: parseOtlpHeaders(vars.OTEL_EXPORTER_OTLP_HEADERS),
            encoding: vars.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json" ? "json" : "protobuf",
            resource: { "service.name": vars.OTEL_SERVICE_NAME ?? "svc-example-app" },
          }),
        ]
      : [],
});

const vars = env as {
  SVC_ADMIN_TOKEN?: string;
  REST_RATE_PER_MINUTE?: string;
  RPC_RATE_PER_MINUTE?: string;
  API_KEY_RATE_PER_MINUTE?: string;
  SOCKETS_PER_IP?: string;
  SOCKETS_PER_USER?: string;
  SUBSCRIPTION_REAUTH_SECONDS?: string;
  REGISTRY_INTERVAL_MS?: string;
  IMPERSONATION_MIN_SECONDS?: string;
  ADMIN_TOTALS_EXACT_UP_TO?: string;
};

/**
 * The shard Durable Object: one SQLite database per shard key, migrating its
 * own data (svc/migrations/). Each shard reports itself to the shard registry
 * (`svc shards list`, the dashboard's shard list) one interval after it first
 * runs, then at most once per interval after a write (default 10 s).
 */
export const Shard = createShard({
  schema,
  functions,
  migrations,
  registry: { intervalMs: Number(vars.REGISTRY_INTERVAL_MS ?? 10_000) },
});
/** Counts rate limits exactly, one object per (rate, key). */
export { RateLimitStore } from "@svc/ratelimit";

const restPerMinute = Number(vars.REST_RATE_PER_MINUTE ?? 120);
const rpcPerMinute = Number(vars.RPC_RATE_PER_MINUTE ?? 600);
const apiKeyPerMinute = Number(vars.API_KEY_RATE_PER_MINUTE ?? 600);
const socketsPerIp = Number(vars.SOCKETS_PER_IP ?? 60);
const socketsPerUser = Number(vars.SOCKETS_PER_USER ?? 20);
/** Per key: a burst of `perMinute / 2` (at least 1), refilled at `perMinute`. */
const bucket = (perMinute: number, capacity = Math.ceil(perMinute / 2)) =>
  ({ kind: "token bucket", rate: perMinute, period: MINUTE, capacity }) as const;

const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: {
    rest: bucket(restPerMinute),
    rpc: bucket(rpcPerMinute),
    apiKeys: bucket(apiKeyPerMinute),
    // Socket opens: a full minute's worth at once, since each socket reopens once per reauth period.
    socketsPerIp: bucket(socketsPerIp, socketsPerIp),
    socketsPerUser: bucket(socketsPerUser, socketsPerUser),
  },
});

/** Exact limits on sign-in, sign-up, password reset and OTP sends (defaults: docs/auth.md). */
const authLimits = createAuthRateLimit({ store: "RATE_LIMITER" });

/**
 * Who may use which shard: anonymous callers only the `default` shard;
 * signed-in users also named rooms (`room-<name>`) and their own `user-<id>`.
 * Anything else is refused before a Durable Object exists for it.
 */
const ROOM_KEY = /^room-[a-z0-9-]{1,48}$/;
const shardAccess: ShardAccessHook = ({ identity, shardKey }) =>
  shardKey === "default" ||
  (identity !== null && (ROOM_KEY.test(shardKey) || shardKey === `user-${identity.userId}`));

const svc = createWorker({
  shardDO: "SHARD",
  functions,
  // API keys (x-api-key: svc_…) first, then better-auth sessions (cookie or bearer token).
  resolveIdentity: apiKeyIdentity(auth, { otherwise: sessionIdentity(auth) }),
  shardAccess,
  adminToken: vars.SVC_ADMIN_TOKEN,
  // Tests lower the shortest impersonation so they need not wait a minute for one to end.
  authAdmin: createAuthAdmin(auth, {
    impersonation: { minDurationSeconds: Number(vars.IMPERSONATION_MIN_SECONDS ?? 60) },
    // …and how far a broad users search is counted, so the dashboard's "10,000+" shows up small.
    totals: { exactUpTo: Number(vars.ADMIN_TOTALS_EXACT_UP_TO ?? 10_000) },
  }),
  restRateLimit: createRestRateLimit(limiter, { name: "rest" }),
  // RPC reaches every public procedure, exposed or not: it gets a limit of its own.
  rpcRateLimit: createRestRateLimit(limiter, { name: "rpc" }),
  // Each API key its own bucket: a limited key answers 429, never 401.
  apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }),
  // Each shard caps its sockets and their frames by itself; the limiter counts opens across shards.
  socketLimits: { perIp: socketsPerIp, perUser: socketsPerUser },
  socketRateLimit: createSocketRateLimit(limiter, {
    perIp: "socketsPerIp",
    perUser: "socketsPerUser",
  }),
  // Live queries re-resolve their caller this often (sign-out ends a socket's authority within it).
  subscriptionReauthSeconds: Number(vars.SUBSCRIPTION_REAUTH_SECONDS ?? 60),
  openApiSpec,
  // Every shard into the BACKUPS bucket at 03:00 UTC, the newest 7 of each kept (docs/data-lifecycle.md).
  backups: { bucket: "BACKUPS", schedule: "0 3 * * *", keep: 7 },
  http,
  crons,
  queues,
  fetch: () =>
    new Response("svc example app — see the README\n", {
      headers: { "content-type": "text/plain" },
    }),
});

/**
 * The specification's typical wiring: migrate, let better-auth answer
 * /api/auth/*, then svc (RPC, REST, admin, then the HTTP actions of
 * svc/http.ts); cron triggers and queue batches go straight to svc.
 */
export default {
  async fetch(request, env, ctx) {
    await ensureMigrated(auth);
    return (
      (await handleAuthRequest(auth, request, { rateLimit: authLimits })) ??
      svc.fetch(request, env, ctx)
    );
  },
  scheduled: svc.scheduled,
  queue: svc.queue,
} satisfies ExportedHandler<unknown>;
