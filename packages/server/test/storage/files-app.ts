import {
  action,
  createWorker,
  type DataAuditEntry,
  defineSchema,
  defineTable,
  mutation,
  query,
  SvcError,
  v,
} from "../../src/index.ts";
import { testIdentity } from "../fixture/identity.ts";

/**
 * Requests with this header go to {@link filesWorker} (see ../worker.ts), or
 * to {@link bareFilesWorker} where its value is {@link BARE_FILES}.
 */
export const FILES_WORKER_HEADER = "x-test-files-worker";

/** The {@link FILES_WORKER_HEADER} value of the app without a signing secret. */
export const BARE_FILES = "bare";

/** The env variable the bare app's storage reads its secret from: never set. */
export const UNSET_STORAGE_SECRET = "FILES_UNSET_SECRET";

/**
 * The storage tests' app: attachments reference files and are readable by
 * their owner only, so a file is readable by whoever may read its attachment.
 */
export const filesSchema = defineSchema({
  attachments: defineTable({
    owner: v.string(),
    name: v.string(),
    file: v.id("_storage"),
  }).policy({
    read: (ctx, doc) => doc.owner === ctx.auth.userId,
    insert: (ctx, doc) => doc.owner === ctx.auth.userId,
    delete: (ctx, doc) => doc.owner === ctx.auth.userId,
  }),
  albums: defineTable({ owner: v.string(), photos: v.array(v.id("_storage")) }).policy({
    read: (ctx, doc) => doc.owner === ctx.auth.userId,
    insert: (ctx, doc) => doc.owner === ctx.auth.userId,
  }),
  // Ids beside free text, inside an array and a record of objects: only the ids reference files.
  galleries: defineTable({
    owner: v.string(),
    items: v.array(v.object({ file: v.id("_storage"), caption: v.string() })),
    labels: v.record(v.object({ file: v.id("_storage"), note: v.string() })),
  }).policy({
    read: (ctx, doc) => doc.owner === ctx.auth.userId,
    insert: (ctx, doc) => doc.owner === ctx.auth.userId,
  }),
});

const uploadOptions = {
  maxBytes: v.optional(v.number()),
  contentTypes: v.optional(v.array(v.string())),
  expiresInMs: v.optional(v.number()),
};

const uploadUrl = mutation
  .input(uploadOptions)
  .handler((ctx, args) => ctx.storage.generateUploadUrl(args));

const uploadUrlThenFail = mutation.handler(async (ctx) => {
  const url = await ctx.storage.generateUploadUrl();
  throw new SvcError("CONFLICT", url);
});

const attach = mutation
  .input({ file: v.id("_storage"), name: v.string() })
  .handler(async (ctx, args) =>
    ctx.db.insert("attachments", { ...args, owner: ctx.auth.userId ?? "" }),
  );

/** Schedules {@link attach} after `delayMs`: a pending job beside the files (files-backup.test.ts). */
const attachLater = mutation
  .input({ file: v.id("_storage"), name: v.string(), delayMs: v.number() })
  .handler((ctx, args) =>
    ctx.scheduler.runAfter(args.delayMs, attach, { file: args.file, name: args.name }),
  );

const album = mutation
  .input({ photos: v.array(v.id("_storage")) })
  .handler(async (ctx, args) =>
    ctx.db.insert("albums", { photos: args.photos, owner: ctx.auth.userId ?? "" }),
  );

const galleryItem = v.object({ file: v.id("_storage"), caption: v.string() });

const gallery = mutation
  .input({
    items: v.array(galleryItem),
    labels: v.record(v.object({ file: v.id("_storage"), note: v.string() })),
  })
  .handler(async (ctx, args) =>
    ctx.db.insert("galleries", { ...args, owner: ctx.auth.userId ?? "" }),
  );

const url = query
  .input({
    file: v.id("_storage"),
    filename: v.optional(v.string()),
    expiresInMs: v.optional(v.number()),
  })
  .handler((ctx, args) =>
    ctx.storage.getUrl(args.file, {
      ...(args.filename !== undefined ? { filename: args.filename } : {}),
      ...(args.expiresInMs !== undefined ? { expiresInMs: args.expiresInMs } : {}),
    }),
  );

const metadata = query
  .input({ file: v.id("_storage") })
  .handler((ctx, args) => ctx.storage.getMetadata(args.file));

const remove = mutation.input({ file: v.id("_storage") }).handler(async (ctx, args) => {
  const holders = await ctx.db
    .query("attachments")
    .filter((doc) => doc.file === args.file)
    .collect();
  for (const holder of holders) await ctx.db.delete(holder._id);
  await ctx.storage.delete(args.file);
});

const storeText = action
  .input({ text: v.string(), contentType: v.optional(v.string()) })
  .handler((ctx, args) =>
    ctx.storage.store(args.text, args.contentType ? { contentType: args.contentType } : {}),
  );

const readText = action.input({ file: v.id("_storage") }).handler(async (ctx, args) => {
  const body = await ctx.storage.get(args.file);
  return body === null ? null : new Response(body).text();
});

/** The storage tests' procedures. */
export const filesFunctions = {
  "files:uploadUrl": uploadUrl,
  "files:uploadUrlThenFail": uploadUrlThenFail,
  "files:attach": attach,
  "files:attachLater": attachLater,
  "files:album": album,
  "files:gallery": gallery,
  "files:url": url,
  "files:metadata": metadata,
  "files:remove": remove,
  "files:storeText": storeText,
  "files:readText": readText,
};

/** The storage tests' operator token (`/_svc/admin/files/*`). */
export const FILES_ADMIN_TOKEN = "files-admin-token-0123456789abcdef";

/** What the storage tests' worker handed to its audit sink, served at {@link FILES_AUDIT_PATH}. */
const filesAudit: DataAuditEntry[] = [];

/** Where the storage tests' worker answers its audit trail (files-admin.test.ts). */
export const FILES_AUDIT_PATH = "/__test/files-audit";

/** The storage tests' worker, over `FILES_SHARD` with its files in the `FILES` bucket. */
export const filesWorker = createWorker({
  shardDO: "FILES_SHARD",
  functions: filesFunctions,
  resolveIdentity: testIdentity,
  storage: { bucket: "FILES" },
  // Backups of the files' shards (storage/files-backup.test.ts), the scheduled ones with the
  // files' bytes; the test fires the schedule itself.
  backups: { bucket: "BACKUPS", schedule: "30 3 * * *", files: true },
  adminToken: FILES_ADMIN_TOKEN,
  logs: false,
  // An admin surface that only records the operator's actions.
  authAdmin: {
    handle: async () => new Response(null, { status: 404 }),
    recordDataAction: async (entry) => {
      filesAudit.push(entry);
    },
  },
  fetch: (request) =>
    new URL(request.url).pathname === FILES_AUDIT_PATH
      ? Response.json(filesAudit)
      : new Response("files route", { status: 404 }),
});

/**
 * The same app over `FILES_BARE_SHARD`, its storage reading the signing
 * secret from a variable that is never set: everything but file URLs works.
 */
export const bareFilesWorker = createWorker({
  shardDO: "FILES_BARE_SHARD",
  functions: filesFunctions,
  resolveIdentity: testIdentity,
  storage: { bucket: "FILES", secret: UNSET_STORAGE_SECRET },
  adminToken: FILES_ADMIN_TOKEN,
  logs: false,
});
