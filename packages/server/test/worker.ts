import { DurableObject } from "cloudflare:workers";
import {
  createLogStore,
  createShard,
  createWorker,
  LogStore,
  type WorkerOptions,
} from "../src/index.ts";
import type { RecordFilters } from "../src/observability/store/endpoint.ts";
import { DATA_BACKUP_SCHEDULE, DATA_WORKER_HEADER, dataWorker } from "./data/data-worker.ts";
import { crons, http, queues } from "./fixture/entry-points.ts";
import { functions } from "./fixture/functions.ts";
import { testIdentity } from "./fixture/identity.ts";
import { migrations } from "./fixture/migrations.ts";
import { openApiSpec } from "./fixture/openapi.ts";
import schema from "./fixture/schema.ts";
import {
  BARE_FILES,
  bareFilesWorker,
  FILES_WORKER_HEADER,
  filesFunctions,
  filesSchema,
  filesWorker,
  UNSET_STORAGE_SECRET,
} from "./storage/files-app.ts";
import "./telemetry-recorder.ts";

/** Indexes of tables over 1,000 documents are built after start, so a test can see it happen. */
export const Shard = createShard({ schema, functions, migrations, indexRowsAtStart: 1_000 });
/** The data-lifecycle tests' shards: a short registry interval, so rows follow writes at once. */
export const DataShard = createShard({
  schema,
  functions,
  migrations,
  registry: { intervalMs: 200 },
});
/**
 * The storage tests' shards: files in `FILES`, unreferenced uploads collected
 * after 1.5 s, a short registry interval (the files admin routes serve known shards only).
 */
export const FilesShard = createShard({
  schema: filesSchema,
  functions: filesFunctions,
  storage: { bucket: "FILES", unreferencedMs: 1_500 },
  registry: { intervalMs: 200 },
});
/** The storage tests' shards of the app without a signing secret (storage/files-no-secret.test.ts). */
export const BareFilesShard = createShard({
  schema: filesSchema,
  functions: filesFunctions,
  storage: { bucket: "FILES", secret: UNSET_STORAGE_SECRET },
  registry: { intervalMs: 200 },
});
export { RateLimitStore } from "@svc/ratelimit";

export { LogStore };

/** A log store that keeps about 20 KB per partition, to watch retention by size. */
export const SmallLogStore = createLogStore({ maxBytes: 20_000 });

/**
 * A log store that counts the reads a live tail makes (`after`), so a test
 * can see a tail stop polling once its reader has gone.
 */
export class CountingLogStore extends LogStore {
  #afterCalls = 0;

  override after(afterSeq: number, filters: RecordFilters, limit: number) {
    this.#afterCalls++;
    return super.after(afterSeq, filters, limit);
  }

  /** How many tail reads this store answered since it started. */
  async afterCalls(): Promise<number> {
    return this.#afterCalls;
  }
}

/** A log store whose storage has failed: every write throws. */
export class BrokenLogStore extends DurableObject {
  async write(): Promise<never> {
    throw new Error("the log store's storage failed");
  }
}

/** A rate-limit store whose storage has failed: every call throws. */
export class BrokenLimiterStore extends DurableObject {
  async limit(): Promise<never> {
    throw new Error("the limiter's storage failed");
  }
}

/** Test identity: the `x-test-user` header names the caller. */
const options: WorkerOptions = {
  shardDO: "SHARD",
  functions,
  adminToken: {
    alice: "test-admin-token-0123456789abcdef",
    ci: "ci-admin-token-0123456789abcdef00",
  },
  resolveIdentity: testIdentity,
  // `private-<user>` shards belong to that user; every other key is open.
  shardAccess: ({ identity, shardKey }) =>
    !shardKey.startsWith("private-") || shardKey === `private-${identity?.userId}`,
  openApiSpec,
  http,
  crons,
  queues,
  // createWorker's side of the admin contract; @svc/auth's createAuthAdmin is tested in its package.
  authAdmin: {
    handle: async (request, context) => {
      // What an app's hook (an email sender, a better-auth hook) writes during an admin call.
      if (context.path === "console-line") console.info("the auth admin wrote a line");
      return Response.json({ method: request.method, ...context });
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
  fetch: () => new Response("app route"),
  // Recording is tested on its own worker below; here it would only slow the campaigns.
  logs: false,
};

const svc = createWorker(options);

/** The main test worker; requests marked for the data-lifecycle tests go to theirs. */
export default {
  fetch: (request, env, ctx) =>
    request.headers.has(DATA_WORKER_HEADER)
      ? dataWorker.fetch(request, env, ctx)
      : request.headers.get(FILES_WORKER_HEADER) === BARE_FILES
        ? bareFilesWorker.fetch(request, env, ctx)
        : request.headers.has(FILES_WORKER_HEADER)
          ? filesWorker.fetch(request, env, ctx)
          : svc.fetch(request, env, ctx),
  scheduled: (controller, env, ctx) =>
    controller.cron === DATA_BACKUP_SCHEDULE
      ? dataWorker.scheduled(controller, env, ctx)
      : svc.scheduled(controller, env, ctx),
  queue: (batch, env, ctx) => svc.queue(batch, env, ctx),
} satisfies ExportedHandler<Cloudflare.Env>;

/**
 * The same worker recording calls into `SVC_LOGS`: two partitions, so every
 * read exercises the merge; no console lines (they would flood test output).
 */
export const recordingWorker = createWorker({
  ...options,
  logs: { console: false, partitions: 2 },
});

/** The same worker recording into a log store that fails every write. */
export const brokenStoreWorker = createWorker({
  ...options,
  logs: { store: "BROKEN_LOGS", partitions: 1 },
});

/** The same worker recording into {@link CountingLogStore}, to watch its live tails' reads. */
export const countedStoreWorker = createWorker({
  ...options,
  logs: { store: "COUNTED_LOGS", console: false, partitions: 1 },
});
