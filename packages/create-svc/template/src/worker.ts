import { env } from "cloudflare:workers";
import {
  createAuthAdmin,
  createAuthRateLimit,
  ensureMigrated,
  handleAuthRequest,
  sessionIdentity,
} from "@svc/auth";
import { createRateLimiter, MINUTE } from "@svc/ratelimit";
import { createRestRateLimit, createShard, createSocketRateLimit, createWorker } from "@svc/server";
import { functions } from "../svc/_generated/functions.ts";
import { openApiSpec } from "../svc/_generated/openapi.ts";
import schema from "../svc/schema.ts";
import { auth } from "./auth.ts";

/** One SQLite database per shard key, holding the tables of svc/schema.ts. */
export const Shard = createShard({ schema, functions });
/** Counts the REST, RPC, socket and auth rate limits exactly. */
export { RateLimitStore } from "@svc/ratelimit";

const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: {
    rest: { kind: "token bucket", rate: 120, period: MINUTE, capacity: 60 },
    rpc: { kind: "token bucket", rate: 600, period: MINUTE, capacity: 300 },
    // Subscription socket opens across all shards (each shard also caps sockets and frames itself).
    socketsPerIp: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60 },
    socketsPerUser: { kind: "token bucket", rate: 20, period: MINUTE, capacity: 20 },
  },
});
const authLimits = createAuthRateLimit({ store: "RATE_LIMITER" });

const svc = createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: sessionIdentity(auth),
  // Everyone uses the default shard; name more keys here once you shard (shards are not a
  // tenant boundary unless this hook makes them one).
  shardAccess: ({ shardKey }) => shardKey === "default",
  adminToken: env.SVC_ADMIN_TOKEN,
  authAdmin: createAuthAdmin(auth), // the admin API and the dashboard at /_svc/dashboard/
  restRateLimit: createRestRateLimit(limiter, { name: "rest" }),
  rpcRateLimit: createRestRateLimit(limiter, { name: "rpc" }),
  socketRateLimit: createSocketRateLimit(limiter, {
    perIp: "socketsPerIp",
    perUser: "socketsPerUser",
  }),
  openApiSpec,
});

export default {
  async fetch(request, env, ctx) {
    // Creates the auth tables on first use (local development, small apps); see the README.
    await ensureMigrated(auth);
    return (
      (await handleAuthRequest(auth, request, { rateLimit: authLimits })) ??
      svc.fetch(request, env, ctx)
    );
  },
} satisfies ExportedHandler<Env>;
