import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type {
  ShardAdminAnswers,
  ShardAdminRequest,
} from "../src/data-admin/studio/shard-protocol.ts";
import type { ShardEndpoint } from "../src/shard/call.ts";
import { rpcValue } from "./rpc.ts";

type Op = ShardAdminRequest["op"];
type RequestOf<K extends Op> = Omit<
  Extract<ShardAdminRequest, { op: K }>,
  "operator" | "requestId" | "shardKey" | "op"
>;

/** Calls the shard's data-studio entry directly (the worker's routes do the same after the gate). */
async function admin<K extends Op>(
  shardKey: string,
  op: K,
  request: RequestOf<K>,
): Promise<ShardAdminAnswers[K]> {
  const stub = env.SHARD.getByName(shardKey) as unknown as ShardEndpoint;
  const result = await stub.admin({
    op,
    operator: "alice",
    requestId: crypto.randomUUID(),
    shardKey,
    ...request,
  } as ShardAdminRequest);
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as ShardAdminAnswers[K];
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; issues?: { path: string }[] };
  }
  throw new Error("expected a failure");
}

const operator = { kind: "operator" } as const;

describe("data studio, shard side", () => {
  it("describes tables: rows, fields, indexes and policy forms", async () => {
    const shardKey = "studio-tables";
    await rpcValue("notes:add", { text: "a", n: 1 }, { shardKey });
    const { tables } = await admin(shardKey, "tables", {});
    const notes = tables.find((table) => table.name === "notes");
    expect(notes).toEqual({
      name: "notes",
      rows: 1,
      fields: [
        { name: "text", optional: false, schema: { type: "string" } },
        { name: "n", optional: true, schema: { type: "number" } },
        {
          name: "big",
          optional: true,
          schema: expect.objectContaining({ type: "object" }),
        },
      ],
      indexes: [
        { name: "by_creation_time", fields: [] },
        { name: "by_n", fields: ["n"] },
      ],
      policies: null,
    });
    expect(tables.find((table) => table.name === "ruleDocs")?.policies).toEqual({
      read: "rule",
      insert: "rule",
      update: "none",
      delete: "none",
    });
  });

  it("pages by creation time and by an index range, every row once", async () => {
    const shardKey = "studio-pages";
    for (let n = 0; n < 7; n++)
      await rpcValue("notes:add", { text: `t${n}`, n: n % 3 }, { shardKey });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await admin(shardKey, "browse", {
        table: "notes",
        viewer: operator,
        order: "desc",
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.documents.map((doc) => String(doc.text)));
      expect(page.plan).toMatchObject({ index: "by_creation_time", served: "index" });
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);

    const ranged = await admin(shardKey, "browse", {
      table: "notes",
      viewer: operator,
      index: "by_n",
      gte: 1,
      lte: 2,
      limit: 10,
    });
    expect(ranged.documents.map((doc) => doc.n)).toEqual([1, 1, 2, 2]);
    expect(ranged.plan).toMatchObject({ index: "by_n", rangeField: "n", eqFields: [] });
    const pinned = await admin(shardKey, "browse", {
      table: "notes",
      viewer: operator,
      index: "by_n",
      eq: [0],
      limit: 10,
    });
    expect(pinned.documents.map((doc) => doc.text)).toEqual(["t0", "t3", "t6"]);
  });

  it("serves a filter from an index when one matches, else scans and says so", async () => {
    const shardKey = "studio-filter";
    for (let n = 0; n < 5; n++)
      await rpcValue("notes:add", { text: n % 2 ? "odd" : "even", n }, { shardKey });
    const byIndex = await admin(shardKey, "browse", {
      table: "notes",
      viewer: operator,
      filter: { n: 3 },
      limit: 10,
    });
    expect(byIndex.documents.map((doc) => doc.n)).toEqual([3]);
    expect(byIndex.plan).toMatchObject({
      index: "by_n",
      eqFields: ["n"],
      served: "index",
      scanned: 1,
    });
    const scanned = await admin(shardKey, "browse", {
      table: "notes",
      viewer: operator,
      filter: { text: "odd" },
      limit: 10,
    });
    expect(scanned.documents.map((doc) => doc.n)).toEqual([1, 3]);
    expect(scanned.plan).toMatchObject({
      index: "by_creation_time",
      served: "scan",
      scanFields: ["text"],
      scanned: 5,
      scanLimited: false,
    });
    const refused = await failure(
      admin(shardKey, "browse", {
        table: "notes",
        viewer: operator,
        filter: { nope: 1 },
        limit: 5,
      }),
    );
    expect(refused).toMatchObject({
      code: "VALIDATION_FAILED",
      issues: [{ path: "query.filter" }],
    });
  });

  it("views as a user: rows hidden by function and rule policies disappear", async () => {
    const shardKey = "studio-view-as";
    await rpcValue("messages:send", { body: "from ann" }, { user: "ann", shardKey });
    await rpcValue("messages:send", { body: "from bob" }, { user: "bob", shardKey });
    const all = await admin(shardKey, "browse", { table: "messages", viewer: operator, limit: 10 });
    expect(all.documents.map((doc) => doc.body)).toEqual(["from ann", "from bob"]);
    const asAnn = await admin(shardKey, "browse", {
      table: "messages",
      viewer: { kind: "user", identity: { userId: "ann" } },
      limit: 10,
    });
    expect(asAnn.documents.map((doc) => doc.body)).toEqual(["from ann"]);
    const anonymous = await admin(shardKey, "browse", {
      table: "messages",
      viewer: { kind: "anonymous" },
      limit: 10,
    });
    expect(anonymous.documents).toEqual([]);
    const bobId = all.documents[1]!._id;
    await expect(
      admin(shardKey, "get", {
        table: "messages",
        id: bobId,
        viewer: { kind: "user", identity: { userId: "ann" } },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(
      (await admin(shardKey, "get", { table: "messages", id: bobId, viewer: operator })).document
        .body,
    ).toBe("from bob");
  });

  it("edits: validation paths, insert, patch, replace, delete, before and after", async () => {
    const shardKey = "studio-edits";
    const invalid = await failure(
      admin(shardKey, "insert", { table: "notes", fields: { text: 5, extra: true } }),
    );
    expect(invalid).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(invalid.issues?.map((issue) => issue.path).sort()).toEqual(["body.extra", "body.text"]);
    const inserted = await admin(shardKey, "insert", {
      table: "notes",
      fields: { text: "new", n: 1 },
    });
    expect(inserted).toMatchObject({ table: "notes", before: null, after: { text: "new", n: 1 } });
    const id = inserted.id;
    const patched = await admin(shardKey, "patch", { table: "notes", id, fields: { n: 2 } });
    expect(patched).toMatchObject({ before: { n: 1 }, after: { text: "new", n: 2 } });
    const badPatch = await failure(
      admin(shardKey, "patch", { table: "notes", id, fields: { n: "x" } }),
    );
    expect(badPatch.issues).toEqual([{ path: "body.n", message: "expected number, got string" }]);
    const replaced = await admin(shardKey, "replace", {
      table: "notes",
      id,
      fields: { text: "only" },
    });
    expect(replaced.after).toEqual({
      _id: id,
      _creationTime: inserted.after!._creationTime,
      text: "only",
    });
    const system = await failure(
      admin(shardKey, "replace", { table: "notes", id, fields: { text: "x", _id: id } }),
    );
    expect(system.issues).toEqual([{ path: "body._id", message: "is set by the system" }]);
    for (const missing of [`${id.slice(0, -1)}0`, "messages_0123456789abcdefghijklmnop", "junk"]) {
      expect(
        await failure(admin(shardKey, "delete", { table: "notes", id: missing })),
      ).toMatchObject({
        code: "NOT_FOUND",
        message: "Not found.",
      });
    }
    expect(
      await failure(
        admin(shardKey, "tables", {}).then(() =>
          admin(shardKey, "browse", { table: "nope", viewer: operator, limit: 1 }),
        ),
      ),
    ).toMatchObject({ code: "NOT_FOUND", message: "Not found." });
    const deleted = await admin(shardKey, "delete", { table: "notes", id });
    expect(deleted).toMatchObject({ before: { text: "only" }, after: null });
  });

  it("bulk edits run in one transaction: one bad id changes nothing", async () => {
    const shardKey = "studio-bulk";
    const ids: string[] = [];
    for (let n = 0; n < 3; n++)
      ids.push(await rpcValue<string>("notes:add", { text: `b${n}` }, { shardKey }));
    const missing = `notes_${"0".repeat(26)}`;
    await expect(
      admin(shardKey, "bulkDelete", { table: "notes", ids: [...ids, missing] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(
      (await admin(shardKey, "browse", { table: "notes", viewer: operator, limit: 10 })).documents,
    ).toHaveLength(3);
    const patched = await admin(shardKey, "bulkPatch", {
      table: "notes",
      ids: ids.slice(0, 2),
      fields: { n: 9 },
    });
    expect(patched.changes.map((change) => change.after?.n)).toEqual([9, 9]);
    const deleted = await admin(shardKey, "bulkDelete", { table: "notes", ids });
    expect(deleted.changes).toHaveLength(3);
    expect(
      (await admin(shardKey, "browse", { table: "notes", viewer: operator, limit: 10 })).documents,
    ).toEqual([]);
  });

  it("runs a procedure as a chosen identity and reports what it wrote", async () => {
    const shardKey = "studio-run";
    const asAnn = { kind: "user", identity: { userId: "ann" } } as const;
    const sent = await admin(shardKey, "run", {
      path: "messages:send",
      args: { body: "hi" },
      as: asAnn,
    });
    expect(sent.kind).toBe("mutation");
    expect(sent.outcome).toMatchObject({ ok: true });
    expect(sent.writes).toEqual([
      { table: "messages", id: (sent.outcome as { value: string }).value, op: "insert" },
    ]);
    const listed = await admin(shardKey, "run", { path: "messages:list", args: {}, as: asAnn });
    expect(listed).toMatchObject({
      kind: "query",
      outcome: { ok: true, value: [{ body: "hi" }] },
      writes: [],
    });
    const asBob = await admin(shardKey, "run", {
      path: "messages:list",
      args: {},
      as: { kind: "user", identity: { userId: "bob" } },
    });
    expect(asBob.outcome).toEqual({ ok: true, value: [] });
    const internal = await admin(shardKey, "run", {
      path: "notes:addViaAction",
      args: { text: "x" },
      as: { kind: "service" },
    });
    expect(internal.writes).toMatchObject([{ table: "notes", op: "insert" }]);
    const rolledBack = await admin(shardKey, "run", {
      path: "messages:sendThenFail",
      args: { body: "no" },
      as: asAnn,
    });
    expect(rolledBack.outcome).toMatchObject({ ok: false });
    expect(rolledBack.writes).toEqual([]);
    const invalid = await admin(shardKey, "run", {
      path: "messages:send",
      args: { body: 1 },
      as: asAnn,
    });
    expect(invalid.outcome).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED" } });
    await expect(
      admin(shardKey, "run", { path: "messages:nope", args: {}, as: asAnn }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
