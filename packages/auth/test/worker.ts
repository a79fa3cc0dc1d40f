import { createShard, createWorker } from "@svc/server";
import { ensureMigrated, handleAuthRequest, sessionIdentity } from "../src/index.ts";
import { auth } from "./fixture/auth.ts";
import { functions, schema } from "./fixture/functions.ts";

export const Shard = createShard({ schema, functions });

const svc = createWorker({ shardDO: "SHARD", functions, resolveIdentity: sessionIdentity(auth) });

/** The specification's typical wiring: migrate, auth routes, then the svc worker. */
export default {
  async fetch(request, env, ctx) {
    await ensureMigrated(auth);
    return (await handleAuthRequest(auth, request)) ?? svc.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Cloudflare.Env>;
