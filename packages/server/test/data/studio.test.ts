import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpcValue } from "../rpc.ts";
import { DATA, dataAdmin, dataJson, eventually, registryRow, seedShard } from "./admin.ts";

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };
type Page = {
  viewer: { kind: string; userId?: string; email?: string | null };
  documents: Doc[];
  nextCursor: string | null;
  plan: {
    index: string;
    served: string;
    scanned: number;
    eqFields: string[];
    scanFields: string[];
  };
};
type Problem = { code: string; detail: string; errors?: { path: string; message: string }[] };
type AuditRow = {
  operator: string;
  action: string;
  targetId: string;
  outcome: string;
  detail: string | null;
};

const documentsOf = (key: string, table: string, query = "") =>
  `shards/${key}/tables/${table}/documents${query === "" ? "" : `?${query}`}`;

/** A shard the registry lists, with `notes` numbered notes (n = 0, 1, …) and messages by ann and bob. */
async function shardWith(key: string, notes: number): Promise<void> {
  for (let n = 0; n < notes; n++)
    await rpcValue(
      "notes:add",
      { text: n % 2 ? "odd" : "even", n },
      { shardKey: key, headers: DATA },
    );
  await rpcValue(
    "messages:send",
    { body: "from ann" },
    { user: "ann", shardKey: key, headers: DATA },
  );
  await rpcValue(
    "messages:send",
    { body: "from bob" },
    { user: "bob", shardKey: key, headers: DATA },
  );
  await registryRow(key, notes + 2);
}

async function answer(response: Response) {
  return {
    status: response.status,
    headers: [...response.headers.entries()],
    body: await response.text(),
  };
}

async function auditEntries(action: string): Promise<AuditRow[]> {
  const all = (await (
    await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA })
  ).json()) as AuditRow[];
  return all.filter((entry) => entry.action === action);
}

describe("data studio admin routes", () => {
  it("refuse without a token (401), name a missing shard or user, and answer every unknown table or id with the one 404", async () => {
    await shardWith("studio-refusals", 1);
    const paths = [
      "shards/studio-refusals/tables",
      documentsOf("studio-refusals", "notes"),
      "shards/studio-refusals/run",
      "functions",
    ];
    for (const path of paths) {
      const response = await dataAdmin("GET", path, { headers: { authorization: "" } });
      expect(response.status, path).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="svc-admin"');
    }
    const unknownRoute = await answer(
      await dataAdmin("GET", "shards/studio-refusals/nothing-here"),
    );
    expect(unknownRoute.status).toBe(404);
    const [note] = (await dataJson<Page>("GET", documentsOf("studio-refusals", "notes"), 200))
      .documents;
    // A missing shard or user is named, so a run says which one was not found.
    for (const [path, detail] of [
      [
        "shards/never-written-shard/tables",
        "No shard never-written-shard: the registry does not list it (never written to, or deleted).",
      ],
      [
        documentsOf("never-written-shard", "notes"),
        "No shard never-written-shard: the registry does not list it (never written to, or deleted).",
      ],
      [
        documentsOf("studio-refusals", "notes", "asUser=nobody%40example.com"),
        "No user has the id or email nobody@example.com.",
      ],
    ] as const) {
      const response = await dataAdmin("GET", path);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { detail: string }).detail, path).toBe(detail);
    }
    const ran = await dataAdmin("POST", "shards/studio-refusals/run", {
      json: { path: "notes:all", as: { kind: "user", userId: "nobody" } },
    });
    expect(ran.status).toBe(404);
    expect(((await ran.json()) as { detail: string }).detail).toBe(
      "No user has the id or email nobody.",
    );
    const missing = [
      documentsOf("studio-refusals", "nope"),
      documentsOf("studio-refusals", "constructor"),
      `${documentsOf("studio-refusals", "notes")}/notes_${"0".repeat(26)}`,
      `${documentsOf("studio-refusals", "messages")}/${note!._id}`,
      `${documentsOf("studio-refusals", "notes")}/junk`,
    ];
    for (const path of missing) {
      const found = await answer(await dataAdmin("GET", path));
      expect({ path, ...found }).toEqual({ path, ...unknownRoute });
    }
    for (const [method, path, json] of [
      ["DELETE", `${documentsOf("studio-refusals", "notes")}/notes_${"1".repeat(26)}`, undefined],
      ["POST", "shards/studio-refusals/run", { path: "notes:nope", as: { kind: "service" } }],
      [
        "POST",
        "shards/studio-refusals/run",
        { path: "messages:failingStream", as: { kind: "service" } },
      ],
    ] as const) {
      const found = await answer(await dataAdmin(method, path, json === undefined ? {} : { json }));
      expect({ path, ...found }).toEqual({ path, ...unknownRoute });
    }
  }, 30_000);

  it("list tables with row counts, fields, validators, user id fields and indexes; list every procedure", async () => {
    await shardWith("studio-tables", 3);
    const { tables } = await dataJson<{
      tables: { name: string; rows: number; indexes: unknown[]; userFields: string[] }[];
    }>("GET", "shards/studio-tables/tables", 200);
    expect(tables.find((table) => table.name === "notes")).toMatchObject({
      rows: 3,
      fields: [
        { name: "text", optional: false, schema: { type: "string" } },
        { name: "n", optional: true, schema: { type: "number" } },
        { name: "big", optional: true },
      ],
      indexes: [
        { name: "by_creation_time", fields: [] },
        { name: "by_n", fields: ["n"] },
      ],
      userFields: [],
      policies: null,
    });
    expect(tables.find((table) => table.name === "messages")).toMatchObject({
      rows: 2,
      // Function policies say nothing the studio can read about which field holds a user.
      userFields: [],
      policies: { read: "function", insert: "function", update: "function", delete: "function" },
    });
    // A field a declarative rule compares with the caller's user id holds a user's id.
    expect(tables.find((table) => table.name === "posts")?.userFields).toEqual(["author"]);
    expect(tables.find((table) => table.name === "ruleDocs")?.userFields).toEqual(["owner"]);
    const { functions } = await dataJson<{
      functions: { path: string; visibility: string; args: object }[];
    }>("GET", "functions", 200);
    expect(functions.find((info) => info.path === "notes:addInternal")).toMatchObject({
      kind: "mutation",
      visibility: "internal",
      args: { type: "object", properties: { text: { type: "string" } } },
    });
  });

  it("browse by index, range and order, page by cursor, filter by index or by a bounded scan", async () => {
    await shardWith("studio-browse", 7);
    const pages: number[][] = [];
    let cursor = "";
    do {
      const page = await dataJson<Page>(
        "GET",
        documentsOf(
          "studio-browse",
          "notes",
          `order=desc&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        ),
        200,
      );
      pages.push(page.documents.map((doc) => doc.n as number));
      cursor = page.nextCursor ?? "";
    } while (cursor !== "");
    expect(pages).toEqual([[6, 5, 4], [3, 2, 1], [0]]);
    const ranged = await dataJson<Page>(
      "GET",
      documentsOf("studio-browse", "notes", "index=by_n&gte=2&lte=4"),
      200,
    );
    expect(ranged.documents.map((doc) => doc.n)).toEqual([2, 3, 4]);
    const pinned = await dataJson<Page>(
      "GET",
      documentsOf("studio-browse", "notes", `index=by_n&eq=${encodeURIComponent("[5]")}`),
      200,
    );
    expect(pinned.documents.map((doc) => doc.n)).toEqual([5]);
    const byIndex = await dataJson<Page>(
      "GET",
      documentsOf("studio-browse", "notes", `filter=${encodeURIComponent('{"n":3}')}`),
      200,
    );
    expect(byIndex.plan).toMatchObject({
      index: "by_n",
      eqFields: ["n"],
      served: "index",
      scanned: 1,
    });
    const scanned = await dataJson<Page>(
      "GET",
      documentsOf("studio-browse", "notes", `filter=${encodeURIComponent('{"text":"odd"}')}`),
      200,
    );
    expect(scanned.documents.map((doc) => doc.n)).toEqual([1, 3, 5]);
    expect(scanned.plan).toMatchObject({
      served: "scan",
      scanFields: ["text"],
      scanned: 7,
      scanLimited: false,
    });

    for (const [query, path] of [
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["order=sideways", "query.order"],
      ["eq=%5B1%5D", "query.eq"],
      ["index=by_n&eq=oops", "query.eq"],
      ["index=nope", "query.index"],
      [`filter=${encodeURIComponent('{"nope":1}')}`, "query.filter"],
      [`filter=${encodeURIComponent('{"n":[1]}')}`, "query.filter"],
      ["unknown=1", "query.unknown"],
    ]) {
      const problem = await dataJson<Problem>(
        "GET",
        documentsOf("studio-browse", "notes", query),
        400,
      );
      expect(problem.code, query).toBe("VALIDATION_FAILED");
      expect(problem.errors?.[0]?.path, query).toBe(path);
    }
    const tampered = await dataJson<Problem>(
      "GET",
      documentsOf("studio-browse", "notes", "cursor=abc"),
      400,
    );
    expect(tampered.code).toBe("BAD_REQUEST");
  });

  it("stop a scan at its limit, say so, and go on from there with the cursor", async () => {
    await seedShard("studio-scan", 1_000);
    await seedShard("studio-scan", 1_000);
    await rpcValue(
      "notes:add",
      { text: "needle", n: 5_000 },
      { shardKey: "studio-scan", headers: DATA },
    );
    await registryRow("studio-scan", 2_001);
    const filter = encodeURIComponent(JSON.stringify({ text: "needle" }));
    const first = await dataJson<Page & { plan: { scanLimited: boolean } }>(
      "GET",
      documentsOf("studio-scan", "notes", `filter=${filter}`),
      200,
    );
    expect(first.documents).toEqual([]);
    expect(first.plan).toMatchObject({ served: "scan", scanned: 2_000, scanLimited: true });
    const next = await dataJson<Page & { plan: { scanLimited: boolean } }>(
      "GET",
      documentsOf(
        "studio-scan",
        "notes",
        `filter=${filter}&cursor=${encodeURIComponent(first.nextCursor ?? "")}`,
      ),
      200,
    );
    expect(next.documents.map((doc) => doc.n)).toEqual([5_000]);
    expect(next.plan).toMatchObject({ scanned: 1, scanLimited: false });
    expect(next.nextCursor).toBeNull();

    // A linked document (`filter={"_id":…}`) is read by its key: found past the scan limit.
    const needle = next.documents[0]?._id as string;
    const byId = (filter: Record<string, unknown>) =>
      dataJson<Page>(
        "GET",
        documentsOf("studio-scan", "notes", `filter=${encodeURIComponent(JSON.stringify(filter))}`),
        200,
      );
    const linked = await byId({ _id: needle });
    expect(linked.documents.map((doc) => doc._id)).toEqual([needle]);
    expect(linked.plan).toMatchObject({
      index: "by_id",
      eqFields: ["_id"],
      served: "index",
      scanned: 1,
    });
    expect(linked.nextCursor).toBeNull();
    expect((await byId({ _id: needle, text: "other" })).documents).toEqual([]);
    expect((await byId({ _id: needle.replace(/^notes_/, "messages_") })).documents).toEqual([]);
    const wrongType = await dataJson<Problem>(
      "GET",
      documentsOf("studio-scan", "notes", `filter=${encodeURIComponent('{"_id":1}')}`),
      400,
    );
    expect(wrongType.errors?.[0]?.path).toBe("query.filter");
  });

  it("view as a user, anonymous or the service: RLS exactly as for that caller, always labelled", async () => {
    await shardWith("studio-view-as", 0);
    const operator = await dataJson<Page>("GET", documentsOf("studio-view-as", "messages"), 200);
    expect(operator.viewer).toEqual({ kind: "operator" });
    expect(operator.documents.map((doc) => doc.body)).toEqual(["from ann", "from bob"]);
    const asAnn = await dataJson<Page>(
      "GET",
      documentsOf("studio-view-as", "messages", "asUser=ann%40example.com"),
      200,
    );
    expect(asAnn.viewer).toEqual({
      kind: "user",
      userId: "ann",
      email: "ann@example.com",
      name: "User ann",
    });
    expect(asAnn.documents.map((doc) => doc.body)).toEqual(["from ann"]);
    const anonymous = await dataJson<Page>(
      "GET",
      documentsOf("studio-view-as", "messages", "asUser=anonymous"),
      200,
    );
    expect(anonymous).toMatchObject({ viewer: { kind: "anonymous" }, documents: [] });
    // A declarative rule (compiled into the SQL) hides rows the same way as the function policy above.
    await rpcValue(
      "rls:seed",
      {
        docs: [
          { owner: "ann", n: 1 },
          { owner: "bob", n: 2 },
          { owner: "carol", flag: true },
        ],
      },
      { shardKey: "studio-view-as", headers: DATA },
    );
    for (const table of ["ruleDocs", "fnDocs"]) {
      const ruled = await dataJson<Page>(
        "GET",
        documentsOf("studio-view-as", table, "asUser=ann"),
        200,
      );
      expect(
        ruled.documents.map((doc) => doc.owner),
        table,
      ).toEqual(["ann", "carol"]);
      const nobody = await dataJson<Page>(
        "GET",
        documentsOf("studio-view-as", table, "asUser=service"),
        200,
      );
      expect(nobody.documents, table).toEqual([]);
    }
    const bobDoc = operator.documents[1]!;
    expect(
      (
        await dataAdmin(
          "GET",
          `${documentsOf("studio-view-as", "messages")}/${bobDoc._id}?asUser=ann`,
        )
      ).status,
    ).toBe(404);
    const asBob = await dataJson<{ viewer: object; document: Doc }>(
      "GET",
      `${documentsOf("studio-view-as", "messages")}/${bobDoc._id}?asUser=bob`,
      200,
    );
    expect(asBob.document.body).toBe("from bob");
  });

  it("edit: validation errors with paths, then insert, patch, replace, delete, bulk; each audited with before and after", async () => {
    await shardWith("studio-edits", 0);
    const notes = documentsOf("studio-edits", "notes");
    const invalid = await dataJson<Problem>("POST", notes, 400, { json: { text: 5, extra: true } });
    expect(invalid.code).toBe("VALIDATION_FAILED");
    expect(invalid.errors?.map((issue) => issue.path).sort()).toEqual(["body.extra", "body.text"]);
    const { document } = await dataJson<{ document: Doc }>("POST", notes, 201, {
      json: { text: "new", big: { $int64: "9007199254740993" } },
    });
    expect(document).toMatchObject({ text: "new", big: { $int64: "9007199254740993" } });
    const id = document._id;
    expect(
      (await dataJson<{ document: Doc }>("PATCH", `${notes}/${id}`, 200, { json: { n: 2 } }))
        .document,
    ).toMatchObject({ text: "new", n: 2 });
    const badPatch = await dataJson<Problem>("PATCH", `${notes}/${id}`, 400, {
      json: { n: "two" },
    });
    expect(badPatch.errors).toEqual([{ path: "body.n", message: "expected number, got string" }]);
    const system = await dataJson<Problem>("PUT", `${notes}/${id}`, 400, {
      json: { text: "x", _id: id },
    });
    expect(system.errors).toEqual([{ path: "body._id", message: "is set by the system" }]);
    const replaced = await dataJson<{ document: Doc }>("PUT", `${notes}/${id}`, 200, {
      json: { text: "only" },
    });
    expect(replaced.document).toEqual({
      _id: id,
      _creationTime: document._creationTime,
      text: "only",
    });
    expect(await dataJson("DELETE", `${notes}/${id}`, 200)).toEqual({ deleted: true, id });
    expect((await dataAdmin("GET", `${notes}/${id}`)).status).toBe(404);

    const updates = await auditEntries("document.update");
    const patchEntry = updates.find(
      (entry) => entry.detail?.includes(id) || entry.detail?.includes('"n":2'),
    );
    expect(patchEntry).toMatchObject({ operator: "alice", outcome: "ok" });
    expect(JSON.parse(patchEntry!.detail!)).toMatchObject({
      shard: "studio-edits",
      table: "notes",
      before: { _id: id, text: "new" },
      after: { _id: id, text: "new", n: 2 },
    });
    expect((await auditEntries("document.update")).some((entry) => entry.outcome === "error")).toBe(
      true,
    );
    const deletion = (await auditEntries("document.delete")).find((entry) =>
      entry.detail?.includes(id),
    );
    expect(JSON.parse(deletion!.detail!)).toMatchObject({ before: { text: "only" }, after: null });

    const ids: string[] = [];
    for (let n = 0; n < 3; n++)
      ids.push(
        (await dataJson<{ document: Doc }>("POST", notes, 201, { json: { text: `b${n}` } }))
          .document._id,
      );
    const bulk = `${notes}/bulk`;
    const missing = `notes_${"0".repeat(26)}`;
    await dataJson<Problem>("POST", bulk, 404, {
      json: { action: "delete", ids: [...ids, missing] },
    });
    expect((await dataJson<Page>("GET", notes, 200)).documents).toHaveLength(3);
    expect(
      await dataJson("POST", bulk, 200, {
        json: { action: "patch", ids: ids.slice(0, 2), fields: { n: 9 } },
      }),
    ).toEqual({
      action: "patch",
      count: 2,
      ids: ids.slice(0, 2),
    });
    const badBulk = await dataJson<Problem>("POST", bulk, 400, {
      json: { action: "patch", ids, fields: { n: "x" } },
    });
    expect(badBulk.errors?.[0]?.path).toBe("body.fields.n");
    await dataJson("POST", bulk, 200, { json: { action: "delete", ids } });
    expect((await dataJson<Page>("GET", notes, 200)).documents).toEqual([]);
    const bulkEntry = (await auditEntries("document.bulk")).find(
      (entry) =>
        entry.detail?.includes(ids[2]!) &&
        entry.outcome === "ok" &&
        entry.detail.includes('"delete"'),
    );
    expect(JSON.parse(bulkEntry!.detail!).documents).toHaveLength(3);
  });

  it("notify live queries of an operator's edit through the shard's commit path", async () => {
    await shardWith("studio-live", 1);
    const response = await exports.default.fetch("http://svc.test/_svc/ws?shardKey=studio-live", {
      headers: { ...DATA, upgrade: "websocket", "sec-websocket-protocol": "svc.v1" },
    });
    const ws = response.webSocket!;
    ws.accept();
    const values: unknown[] = [];
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data as string) as { type: string; value?: unknown };
      if (frame.type === "value") values.push(frame.value);
    });
    ws.send(JSON.stringify({ type: "subscribe", id: "n", path: "notes:all" }));
    await eventually(async () => (values.length === 1 ? true : undefined), "the first value");
    const [note] = values[0] as Doc[];
    await dataJson("PATCH", `${documentsOf("studio-live", "notes")}/${note!._id}`, 200, {
      json: { text: "edited by alice" },
    });
    const pushed = await eventually(async () => values[1], "the value after the edit");
    expect((pushed as Doc[])[0]).toMatchObject({ _id: note!._id, text: "edited by alice" });
    ws.close();
  });

  it("run a procedure as a user, anonymously or as the service: value or error, duration, writes; audited", async () => {
    await shardWith("studio-run", 0);
    const run = (json: unknown, status = 200) =>
      dataJson<Record<string, unknown>>("POST", "shards/studio-run/run", status, { json });
    const sent = await run({
      path: "messages:send",
      args: { body: "hi" },
      as: { kind: "user", userId: "ann" },
    });
    expect(sent).toMatchObject({
      path: "messages:send",
      kind: "mutation",
      as: { kind: "user", userId: "ann" },
      outcome: { ok: true },
    });
    expect(typeof sent.durationMs).toBe("number");
    expect(sent.writes).toEqual([
      { table: "messages", id: (sent.outcome as { value: string }).value, op: "insert" },
    ]);
    const listed = await run({
      path: "messages:list",
      as: { kind: "user", userId: "ann@example.com" },
    });
    expect((listed.outcome as { value: Doc[] }).value.map((doc) => doc.body)).toEqual([
      "from ann",
      "hi",
    ]);
    expect(
      await run({ path: "messages:send", args: { body: "x" }, as: { kind: "anonymous" } }),
    ).toMatchObject({
      outcome: { ok: false, error: { code: "UNAUTHENTICATED" } },
      writes: [],
    });
    const internal = await run({
      path: "jobs:record",
      args: { job: "studio" },
      as: { kind: "service" },
    });
    expect(internal).toMatchObject({
      kind: "mutation",
      as: { kind: "service" },
      outcome: { ok: true },
      writes: [{ table: "jobRuns", op: "insert" }],
    });
    const viaAction = await run({
      path: "notes:addViaAction",
      args: { text: "x" },
      as: { kind: "service" },
    });
    expect(viaAction).toMatchObject({ kind: "action", writes: [{ table: "notes", op: "insert" }] });
    const rolledBack = await run({
      path: "messages:sendThenFail",
      args: { body: "no" },
      as: { kind: "user", userId: "ann" },
    });
    expect(rolledBack).toMatchObject({
      outcome: { ok: false, error: { code: "CONFLICT" } },
      writes: [],
    });
    const refused = await run({
      path: "jobs:recordAsCaller",
      args: { job: "x" },
      as: { kind: "user", userId: "ann" },
    });
    expect(refused).toMatchObject({
      outcome: { ok: false, error: { code: "FORBIDDEN" } },
      writes: [],
    });
    const invalid = await run({
      path: "messages:send",
      args: { body: 1 },
      as: { kind: "user", userId: "ann" },
    });
    expect(invalid.outcome).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_FAILED", issues: [{ path: "args.body" }] },
    });
    const badBody = await run({ path: "messages:send", as: { kind: "root" } }, 400);
    expect(badBody).toMatchObject({ code: "VALIDATION_FAILED" });
    const entry = (await auditEntries("procedure.run")).find(
      (row) => row.detail?.includes('"messages:send"') && row.detail.includes('"ok":true'),
    );
    expect(JSON.parse(entry!.detail!)).toMatchObject({
      shard: "studio-run",
      as: { kind: "user", userId: "ann" },
      writes: [{ table: "messages", op: "insert" }],
    });
  });
});
