/**
 * DEV PREVIEW ONLY: real shards behind the Data and Functions screens. The
 * preview's shard class runs a chat app's schema and procedures (the example
 * app's, in small); on
 * the first request each preview shard is filled through the real admin
 * route `POST /_svc/admin/data/shards/:key/import` (a backup into an empty
 * shard), so the registry lists them and every screen reads real answers.
 */
import {
  createShard,
  defineSchema,
  defineTable,
  internalMutation,
  mutation,
  query,
  rule,
  SvcError,
  v,
} from "@svc/server";

const isAuthor = rule.eq("author", rule.userId);

/** A chat app's tables, as the example app has them. */
const schema = defineSchema({
  messages: defineTable({ author: v.string(), body: v.string(), channel: v.string() })
    .index("by_channel", ["channel"])
    .index("by_author_channel", ["author", "channel"])
    .policy({ read: isAuthor, insert: isAuthor, update: isAuthor, delete: isAuthor }),
  notices: defineTable({ text: v.string() }),
  maintenance: defineTable({ job: v.string(), lastRunAt: v.number() })
    .index("by_job", ["job"])
    .policy({
      read: rule.always,
      insert: rule.callerIs("service"),
      update: rule.callerIs("service"),
    }),
});

/** The preview's procedures: public and internal, queries and mutations, for the Functions screen. */
export const functions = {
  "messages:list": query
    .input({ channel: v.optional(v.string()), limit: v.optional(v.number()) })
    .expose({ rest: true })
    .describe("List my messages", "The signed-in user's messages in a channel, newest first.")
    .handler(async (ctx, args) =>
      ctx.db
        .query("messages")
        .withIndex("by_channel", (q) => q.eq("channel", args.channel ?? "general"))
        .order("desc")
        .take(args.limit ?? 20),
    ),
  "messages:send": mutation
    .input({ body: v.string(), channel: v.optional(v.string()) })
    .expose({ rest: true })
    .describe("Send a message")
    .handler(async (ctx, args) => {
      if (ctx.auth.userId === null)
        throw new SvcError("UNAUTHENTICATED", "Sign in to send messages.");
      return ctx.db.insert("messages", {
        author: ctx.auth.userId,
        body: args.body,
        channel: args.channel ?? "general",
      });
    }),
  "notices:latest": query.handler(async (ctx) => ctx.db.query("notices").order("desc").take(10)),
  "maintenance:sweep": internalMutation
    .input({ job: v.union(v.literal("sweep"), v.literal("reindex")) })
    .describe("Record a maintenance run")
    .handler(async (ctx, args) =>
      ctx.db.insert("maintenance", { job: args.job, lastRunAt: Date.now() }),
    ),
};

/** The preview's shard class, reporting to the registry soon after a write. */
export const Shard = createShard({ schema, functions, registry: { intervalMs: 500 } });

const CHANNELS = ["general", "design", "random"];
const LINES = [
  "Shipped the new onboarding flow",
  "Can someone review the billing PR?",
  "Standup moved to 10:30 today",
  "The staging deploy is green again",
  "Lunch order goes out at noon",
  "Reminder: retro on Friday",
  "Does anyone know why the cron job ran twice?",
  "New icons are in Figma",
];

/** A backup (svc's NDJSON format) of one preview shard: messages by the given users, notices, one maintenance row. */
function backupOf(key: string, authors: readonly string[], count: number): string {
  const start = Date.parse("2026-11-20T09:00:00Z");
  // Ids as the database makes them (26 base-36 characters), the same on every run.
  const id = (table: string, n: number) => {
    let state = (n + 1) * 2_654_435_761 + table.length;
    let suffix = "";
    for (let i = 0; i < 26; i++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      suffix += (state % 36).toString(36);
    }
    return `${table}_${suffix}`;
  };
  const lines = [
    JSON.stringify({
      format: "svc-backup",
      formatVersion: 1,
      schemaVersion: null,
      svcVersion: "0.1.0",
      shardKey: key,
      createdAt: new Date(start + count * 60_000).toISOString(),
      tables: { messages: count, notices: 3, maintenance: 1 },
    }),
  ];
  for (let n = 0; n < count; n++) {
    lines.push(
      JSON.stringify({
        table: "messages",
        _id: id("messages", n),
        _creationTime: start + n * 47_000,
        doc: {
          author: authors[n % authors.length],
          body: LINES[n % LINES.length],
          channel: CHANNELS[n % CHANNELS.length],
        },
      }),
    );
  }
  for (let n = 0; n < 3; n++) {
    lines.push(
      JSON.stringify({
        table: "notices",
        _id: id("notices", n),
        _creationTime: start + n * 3_600_000,
        doc: { text: "A new message was posted." },
      }),
    );
  }
  lines.push(
    JSON.stringify({
      table: "maintenance",
      _id: id("maintenance", 0),
      _creationTime: start,
      doc: { job: "sweep", lastRunAt: start + 86_400_000 },
    }),
  );
  return `${lines.join("\n")}\n`;
}

let seeded: Promise<void> | undefined;

/**
 * Fills the preview shards once per isolate through `fetch` (the preview's
 * own worker, with its admin token). A shard that already holds data (a
 * preview restarted on its saved state) answers 409 and is left alone.
 */
export function seedPreviewShards(
  fetch: (request: Request) => Promise<Response>,
  origin: string,
  token: string,
  authors: readonly string[],
): Promise<void> {
  seeded ??= (async () => {
    for (const [key, count] of [
      ["room-lobby", 240],
      ["room-design", 36],
      ["default", 12],
    ] as const) {
      const response = await fetch(
        new Request(`${origin}/_svc/admin/data/shards/${key}/import`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
          body: backupOf(key, authors, count),
        }),
      );
      if (!response.ok && response.status !== 409)
        console.error(`preview: seeding ${key} answered ${response.status}`, await response.text());
    }
  })();
  return seeded;
}
