import { DurableObject } from "cloudflare:workers";
import { createShard, createWorker, type DataAuditEntry } from "../src/index.ts";
import { crons, http, queues } from "./fixture/entry-points.ts";
import { functions } from "./fixture/functions.ts";
import { openApiSpec } from "./fixture/openapi.ts";
import schema from "./fixture/schema.ts";
import "./telemetry-recorder.ts";

// A shorter registry interval, so tests see reports soon (default: 10 s).
export const Shard = createShard({ schema, functions, registry: { intervalMs: 1000 } });
export { RateLimitStore } from "@svc/ratelimit";

/** A rate-limit store whose storage has failed: every call throws. */
export class BrokenLimiterStore extends DurableObject {
  async limit(): Promise<never> {
    throw new Error("the limiter's storage failed");
  }
}

/** Data actions createWorker handed to the admin surface's audit sink, served at `GET /__test/audit`. */
const dataAudit: DataAuditEntry[] = [];

/** Test identity: the `x-test-user` header names the caller. */
export default createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: {
    alice: "test-admin-token-0123456789abcdef",
    ci: "ci-admin-token-0123456789abcdef00",
  },
  resolveIdentity: (request) => {
    const user = request.headers.get("x-test-user");
    if (!user) return null;
    const teams = request.headers.get("x-test-teams");
    const level = request.headers.get("x-test-level");
    return {
      userId: user,
      name: `User ${user}`,
      ...(teams !== null ? { teams: teams.split(",").filter(Boolean) } : {}),
      ...(level !== null ? { level: Number(level) } : {}),
    };
  },
  // `private-<user>` shards belong to that user; every other key is open.
  shardAccess: ({ identity, shardKey }) =>
    !shardKey.startsWith("private-") || shardKey === `private-${identity?.userId}`,
  openApiSpec,
  backups: { bucket: "BACKUPS", schedule: "30 3 * * *", keep: 2 },
  http,
  crons,
  queues,
  // createWorker's side of the admin contract; @svc/auth's createAuthAdmin is tested in its package.
  authAdmin: {
    handle: async (request, context) => Response.json({ method: request.method, ...context }),
    // The data studio acts as these users; anyone else does not exist.
    lookupIdentity: async (idOrEmail) => {
      const userId = idOrEmail.replace(/@example\.com$/, "");
      return ["alice", "ann", "bob"].includes(userId)
        ? { userId, name: `User ${userId}`, email: `${userId}@example.com` }
        : null;
    },
    recordDataAction: async (entry) => {
      dataAudit.push(entry);
    },
    handleLink: async (request, context) =>
      Response.json({ link: true, method: request.method, ...context }),
    dashboard: {
      files: {
        "index.html": {
          body: "<!doctype html><title>dash</title>",
          contentType: "text/html; charset=utf-8",
        },
        "app.js": { body: "console.log(1)", contentType: "text/javascript; charset=utf-8" },
      },
    },
  },
  fetch: (request) =>
    new URL(request.url).pathname === "/__test/audit"
      ? Response.json(dataAudit)
      : new Response("app route"),
});
