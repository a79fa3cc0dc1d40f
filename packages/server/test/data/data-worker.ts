import { createWorker, type DataAuditEntry } from "../../src/index.ts";
import { functions } from "../fixture/functions.ts";
import { testIdentity } from "../fixture/identity.ts";

/** Requests with this header go to {@link dataWorker} (see ../worker.ts). */
export const DATA_WORKER_HEADER = "x-test-data-worker";
/** The data worker's backup schedule; `scheduled` with this cron goes to it. */
export const DATA_BACKUP_SCHEDULE = "30 3 * * *";

/** Data actions the worker handed to the admin surface's audit sink, served at `GET /__test/audit`. */
const dataAudit: DataAuditEntry[] = [];

/**
 * The data-lifecycle tests' worker: the same app over `DATA_SHARD`, a shard
 * class whose registry interval is short (200 ms), with backups to the
 * `BACKUPS` bucket. Kept apart so the many shards the other tests create
 * report on the default interval, after those tests are over.
 */
export const dataWorker = createWorker({
  shardDO: "DATA_SHARD",
  functions,
  adminToken: {
    alice: "test-admin-token-0123456789abcdef",
    ci: "ci-admin-token-0123456789abcdef00",
  },
  resolveIdentity: testIdentity,
  backups: { bucket: "BACKUPS", schedule: DATA_BACKUP_SCHEDULE, keep: 2 },
  // Call records are tested on ../worker.ts's recording worker.
  logs: false,
  authAdmin: {
    handle: async () => new Response(null, { status: 404 }),
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
  },
  fetch: (request) =>
    new URL(request.url).pathname === "/__test/audit"
      ? Response.json(dataAudit)
      : new Response("data route"),
});
