import { env } from "cloudflare:workers";
import { createShard, createWorker } from "@svc/server";
import { functions } from "../svc/_generated/functions.ts";
import schema from "../svc/schema.ts";

export const Shard = createShard({ schema, functions });

export default createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: (env as { SVC_ADMIN_TOKEN?: string }).SVC_ADMIN_TOKEN,
  fetch: () => new Response("svc example app\n"),
});
