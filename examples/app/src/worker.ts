import { env } from "cloudflare:workers";
import { createRateLimiter, MINUTE } from "@svc/ratelimit";
import { createRestRateLimit, createShard, createWorker } from "@svc/server";
import { functions } from "../svc/_generated/functions.ts";
import { openApiSpec } from "../svc/_generated/openapi.ts";
import schema from "../svc/schema.ts";

/** The shard Durable Object: one SQLite database per shard key. */
export const Shard = createShard({ schema, functions });
/** Counts rate limits exactly, one object per (rate, key). */
export { RateLimitStore } from "@svc/ratelimit";

const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: { rest: { kind: "token bucket", rate: 120, period: MINUTE, capacity: 60 } },
});

export default createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: (env as { SVC_ADMIN_TOKEN?: string }).SVC_ADMIN_TOKEN,
  restRateLimit: createRestRateLimit(limiter, { name: "rest" }),
  openApiSpec,
  fetch: () => new Response("svc example app\n"),
});
