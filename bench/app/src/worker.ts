import {
  apiKeyIdentity,
  createAuthAdmin,
  ensureMigrated,
  handleAuthRequest,
  sessionIdentity,
} from "@svc/auth";
import { createRateLimiter, MINUTE } from "@svc/ratelimit";
import {
  createApiKeyRateLimit,
  createRestRateLimit,
  createShard,
  createWorker,
  type SvcWorker,
} from "@svc/server";
import { requestUrl } from "@svc/server/internal";
import { Hono } from "hono";
import { functions, migrations } from "../svc/_generated/functions.ts";
import schema from "../svc/schema.ts";
import { auth, cachedAuth, plainAuth } from "./auth.ts";
import { callLoop } from "./call-loop.ts";
import { collectGarbage } from "./collect-garbage.ts";
import { countersResponse } from "./counters.ts";
import { type DataBenchEnv, type DocShape, dataBenchHooks, dataBenchRoute } from "./data-bench.ts";
import { limiterRoute } from "./limiter-loops.ts";
import { logBenchRoute } from "./log-bench.ts";
import type { PingStore } from "./ping-store.ts";
import { type PlainFilesEnv, plainFilesRoute } from "./plain-files.ts";
import { PlainRows } from "./plain-rows.ts";
import { searchBenchHooks } from "./search-bench.ts";
import { seedSessions } from "./seed-sessions.ts";
import { BENCH_ADMIN_TOKEN, benchStudioAdmin } from "./studio-admin.ts";
import { timerWakes } from "./timer-wakes.ts";

export { RateLimitStore } from "./counted-store.ts";
export { PlainDocs } from "./data-bench.ts";
export { BenchLogStore } from "./log-bench.ts";
export { PingStore } from "./ping-store.ts";
export { PlainRows };
/** The same shard with the shard registry off: the registry scenario's baseline. */
export const ShardNoRegistry = createShard({ schema, functions, migrations, registry: false });

/** The svc shard, plus the data bench's hooks (seeding old documents, restarting). */
export class Shard extends createShard({ schema, functions, migrations }) {
  seedDocs(count: number, shape: DocShape): void {
    dataBenchHooks(this.ctx).seedDocs(count, shape);
  }

  restart(): void {
    dataBenchHooks(this.ctx).restart();
  }

  /** The search scenario's notes, written straight into SQLite (the index fills by trigger). */
  seedNotes(from: number, count: number): void {
    searchBenchHooks(this.ctx).seedNotes(from, count);
  }
}

interface Env extends DataBenchEnv, PlainFilesEnv {
  AUTH_DB: D1Database;
  PLAIN: DurableObjectNamespace<PlainRows>;
  PING: DurableObjectNamespace<PingStore>;
  SVC_LOGS: DurableObjectNamespace;
}

// Never refuses: the measured cost is the gate's round trip to its store.
const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: {
    rest: { kind: "token bucket", rate: 100_000_000, period: MINUTE },
    // The leased mode: each isolate takes 1,000 units per store call.
    restLeased: {
      kind: "token bucket",
      rate: 100_000_000,
      period: MINUTE,
      lease: { units: 1_000, ttlMs: 1_000 },
    },
    apiKeys: { kind: "token bucket", rate: 100_000_000, period: MINUTE },
  },
});

// The API key scenario: keys created through the admin API, resolved as the README wires them.
const apiKeyCaller = {
  shardDO: "SHARD",
  functions,
  adminToken: BENCH_ADMIN_TOKEN,
  authAdmin: createAuthAdmin(auth),
  resolveIdentity: apiKeyIdentity(auth, { otherwise: sessionIdentity(auth) }),
} as const;

/** The svc workers compared, chosen per request by `x-bench-variant`. */
const variants: Record<string, SvcWorker<Env>> = {
  // The fan-out scenario opens its 1,000 sockets from one address on one shard.
  plain: createWorker<Env>({ shardDO: "SHARD", functions, socketLimits: { perIp: 10_000 } }),
  // The observability scenario: the same REST read without recording, recorded without console
  // lines, and with console lines only (no store: the worker prints them itself).
  "logs-off": createWorker<Env>({ shardDO: "SHARD", functions, logs: false }),
  "logs-console-only": createWorker<Env>({ shardDO: "SHARD", functions, logs: { store: false } }),
  "logs-store-only": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    logs: { console: false },
    adminToken: BENCH_ADMIN_TOKEN,
  }),
  // The registry scenario: shards that report to the registry (plain) against shards that do not.
  "no-registry": createWorker<Env>({
    shardDO: "SHARD_NO_REGISTRY",
    functions,
    socketLimits: { perIp: 10_000 },
  }),
  // The registry scenario's export, import, backup and restore, through the data admin routes.
  admin: createWorker<Env>({
    shardDO: "SHARD",
    functions,
    adminToken: BENCH_ADMIN_TOKEN,
    backups: { bucket: "BACKUPS", schedule: "0 3 * * *", keep: 100 },
  }),
  ratelimit: createWorker<Env>({
    shardDO: "SHARD",
    functions,
    restRateLimit: createRestRateLimit(limiter, { name: "rest" }),
  }),
  // The same exact gate decided in the worker, as every gate was before 2026-12-06.
  "ratelimit-worker": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    restRateLimit: createRestRateLimit(limiter, { name: "rest", decideIn: "worker" }),
  }),
  "ratelimit-leased": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    restRateLimit: createRestRateLimit(limiter, { name: "restLeased" }),
  }),
  // The default: identities cached per isolate, checked against the revocation log.
  identity: createWorker<Env>({
    shardDO: "SHARD",
    functions,
    resolveIdentity: sessionIdentity(auth),
  }),
  // Before issue 32's default: better-auth's getSession (a D1 read) on every call.
  "identity-exact": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    resolveIdentity: sessionIdentity(auth, { cache: false }),
  }),
  // The short-TTL alternative: a 1 s cache and no log (a source without a database).
  "identity-ttl-1s": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    resolveIdentity: sessionIdentity({ api: auth.api }, { cache: { ttlMs: 1_000 } }),
  }),
  "api-key": createWorker<Env>(apiKeyCaller),
  "api-key-limited": createWorker<Env>({
    ...apiKeyCaller,
    apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }),
  }),
  // The RLS scenario's caller: named by a header (identity cost is measured elsewhere).
  "header-identity": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    resolveIdentity: (request) => {
      const user = request.headers.get("x-bench-user");
      return user ? { userId: user } : null;
    },
  }),
  // The data studio scenario: the admin routes, "view as" through the lookup above.
  studio: createWorker<Env>({
    shardDO: "SHARD",
    functions,
    adminToken: BENCH_ADMIN_TOKEN,
    authAdmin: benchStudioAdmin,
  }),
  "identity-cookie-cache": createWorker<Env>({
    shardDO: "SHARD",
    functions,
    resolveIdentity: sessionIdentity(cachedAuth),
  }),
};

/** The baseline a user would write by hand: Hono routes calling the Durable Object directly. */
const hono = new Hono<{ Bindings: Env }>()
  .post("/hono/seed", async (c) => c.json(await c.env.PLAIN.getByName("bench").seed()))
  .get("/hono/row/:id", async (c) =>
    c.json(await c.env.PLAIN.getByName("bench").getRow(c.req.param("id"))),
  )
  // The lists scenario: 100 rows of object `lists`, filled by POST /hono/fill.
  .post("/hono/fill", async (c) => {
    await c.env.PLAIN.getByName("lists").fill(0, 100);
    return c.json(null);
  })
  .get("/hono/rows", async (c) => c.json(await c.env.PLAIN.getByName("lists").getRows()));

let plainMigrated: Promise<unknown> | undefined;
/**
 * Set once svc's auth tables are in place: later requests skip the await of
 * the settled `ensureMigrated` (a promise turn per request the Hono route
 * does not pay), as an app that checks a flag first would.
 */
let authMigrated = false;

async function migrateAuth(): Promise<void> {
  if (authMigrated) return;
  await ensureMigrated(auth);
  authMigrated = true;
}

/**
 * The bench's own routes (loads, seeds, baselines other than Hono's), which
 * an app has none of; `undefined` for any other path.
 */
function benchRoute(
  request: Request,
  url: URL,
  env: Env,
  ctx: ExecutionContext,
): Response | Promise<Response> | undefined {
  const { pathname } = url;
  if (pathname.startsWith("/rl/")) return limiterRoute(url, env);
  if (pathname.startsWith("/data-bench/")) return dataBenchRoute(url, env);
  if (pathname === "/search-bench/seed") return seedSearchNotes(url, env);
  if (pathname.startsWith("/obs/")) return logBenchRoute(url, env);
  if (pathname.startsWith("/plain-files")) return plainFilesRoute(request, url, env);
  if (pathname === "/bench/loop") return callLoop(url, variants, env, ctx);
  if (pathname === "/bench/counters") return countersResponse();
  if (pathname === "/bench/gc") return collectGarbage();
  if (pathname === "/bench/timer-wakes") return timerWakes(url);
  if (pathname.startsWith("/plain-auth/")) {
    plainMigrated ??= ensureMigrated(plainAuth);
    return plainMigrated.then(() => plainAuth.handler(request));
  }
  if (pathname.startsWith("/cached-auth/"))
    return migrateAuth().then(() => cachedAuth.handler(request));
  if (pathname === "/bench/seed-sessions")
    return migrateAuth().then(() => seedSessions(env.AUTH_DB, url));
  return undefined;
}

async function seedSearchNotes(url: URL, env: Env): Promise<Response> {
  const { searchParams } = url;
  const shard = env.SHARD.getByName(searchParams.get("shard") ?? "bench") as unknown as {
    seedNotes(from: number, count: number): Promise<void>;
  };
  await shard.seedNotes(
    Number(searchParams.get("from") ?? 0),
    Number(searchParams.get("count") ?? 0),
  );
  return Response.json({ ok: true });
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    // svc's own parse (kept on the request), so the svc routes below reuse it as the Hono route
    // reuses the one parse it needs: the bench's routing costs every target the same. So does
    // the variant header, read before any target: read after the Hono route, it billed a header
    // lookup (0.6 % of the REST read's profile samples) to svc targets alone, which no app pays.
    const url = requestUrl(request);
    const variantName = request.headers.get("x-bench-variant");
    const { pathname } = url;
    if (pathname.startsWith("/hono/")) return hono.fetch(request, env, ctx);
    // An app has no bench routes: svc's calls go straight to what an app runs before svc.
    if (!pathname.startsWith("/_svc/")) {
      const own = benchRoute(request, url, env, ctx);
      if (own !== undefined) return own;
    }
    if (!authMigrated) await migrateAuth();
    const answered = await handleAuthRequest(auth, request);
    if (answered) return answered;
    const variant = variants[variantName ?? "plain"] ?? variants.plain!;
    return variant.fetch(request, env, ctx);
  },
};
