import { DurableObject } from "cloudflare:workers";
import { createShard, createWorker } from "@svc/server";
import {
  createAuthAdmin,
  ensureMigrated,
  handleAuthRequest,
  sessionIdentity,
} from "../src/index.ts";
import { ADMIN_TOKENS, adminAuth } from "./fixture/admin.ts";
import { auth } from "./fixture/auth.ts";
import { functions, schema } from "./fixture/functions.ts";

// A short registry interval: the data-audit test waits for a new shard to be listed (default: 10 s).
export const Shard = createShard({ schema, functions, registry: { intervalMs: 200 } });
/** Counts the auth endpoint limits of the tests that use them. */
export { RateLimitStore } from "@svc/ratelimit";

/** A limiter store whose every decision fails: an outage, for limits-store-outage.test.ts. */
export class BrokenLimiterStore extends DurableObject {
  async limit(): Promise<never> {
    throw new Error("the limiter's storage failed");
  }
}

const svc = createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: sessionIdentity(auth),
  adminToken: ADMIN_TOKENS,
  authAdmin: createAuthAdmin(adminAuth),
});

/**
 * The specification's typical wiring: migrate, auth routes, then the svc
 * worker, whose admin surface serves a second auth (`fixture/admin.ts`, its
 * own routes under `/admin-app/api/auth`).
 */
export default {
  async fetch(request, env, ctx) {
    await Promise.all([ensureMigrated(auth), ensureMigrated(adminAuth)]);
    return (
      (await handleAuthRequest(auth, request)) ??
      (await handleAuthRequest(adminAuth, request)) ??
      svc.fetch(request, env, ctx)
    );
  },
} satisfies ExportedHandler<Cloudflare.Env>;
