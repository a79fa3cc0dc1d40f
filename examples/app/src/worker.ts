import { env } from "cloudflare:workers";
import { createShard, createWorker } from "@svc/server";
import { functions } from "../svc/_generated/functions.ts";
import { openApiSpec } from "../svc/_generated/openapi.ts";
import schema from "../svc/schema.ts";

/** The shard Durable Object: one SQLite database per shard key. */
export const Shard = createShard({ schema, functions });

export default createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: (env as { SVC_ADMIN_TOKEN?: string }).SVC_ADMIN_TOKEN,
  openApiSpec,
  fetch: () => new Response("svc example app\n"),
});
