import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createRouteClient,
  fakeOf,
  fileAnswer,
  implement,
  integer,
  named,
  oneOf,
  rawBody,
  route,
  routeGroup,
  routesMarkdownTable,
  routesOpenApi,
  serveRoutes,
  text,
  v,
} from "../../src/entries/routes.ts";
import { SvcError } from "../../src/errors/svc-error.ts";

const note = named("Note", v.object({ id: v.string(), body: v.string(), pinned: v.boolean() }));

const notes = routeGroup({
  prefix: "/_svc/admin/notes/",
  tag: "notes",
  routes: {
    listNotes: route({
      method: "GET",
      path: "notes",
      summary: "List notes",
      query: v.object({
        search: v.optional(text(20)),
        limit: v.optional(integer(1, 100)),
        pinned: v.optional(v.boolean()),
        order: v.optional(oneOf(["asc", "desc"])),
      }),
      answer: v.object({ notes: v.array(note), query: v.record(v.any()) }),
    }),
    createNote: route({
      method: "POST",
      path: "notes",
      summary: "Create a note",
      body: v.object({ body: v.string(), pinned: v.optional(v.boolean()) }),
      answer: v.object({ note }),
      status: 201,
      errors: ["CONFLICT"],
      audit: "note.create",
    }),
    deleteNote: route({
      method: "DELETE",
      path: "notes/:id",
      summary: "Delete a note",
      answer: v.object({ deleted: v.literal(true) }),
      audit: "note.delete",
      requires: "deleting",
    }),
    importNotes: route({
      method: "POST",
      path: "notes/import",
      summary: "Import notes",
      body: rawBody({ "text/csv": v.string() }, "Notes as CSV"),
      answer: v.object({ read: v.number() }),
    }),
    exportNotes: route({
      method: "GET",
      path: "notes/export",
      summary: "Export notes",
      answer: fileAnswer({ "text/csv": v.string() }, "Every note as CSV"),
    }),
  },
});

interface Context {
  deleting: boolean;
  stored: { id: string; body: string; pinned: boolean }[];
}
interface AuditRecord {
  action: string;
  params: Readonly<Record<string, string>>;
  detail?: string;
  outcome?: string;
}

function setUp() {
  const records: AuditRecord[] = [];
  const implementation = implement(notes)
    .context<Context, AuditRecord>()
    .handlers({
      listNotes: async ({ query, ctx }) => {
        expectTypeOf(query.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(query.order).toEqualTypeOf<"asc" | "desc" | undefined>();
        return { notes: ctx.stored, query };
      },
      createNote: async ({ body, ctx, audit }) => {
        expectTypeOf(body).toEqualTypeOf<{ body: string; pinned?: boolean }>();
        if (ctx.stored.some((stored) => stored.body === body.body))
          throw new SvcError("CONFLICT", "A note says that already.");
        const created = {
          id: `n${ctx.stored.length + 1}`,
          body: body.body,
          pinned: body.pinned ?? false,
        };
        ctx.stored.push(created);
        audit.detail = `created ${created.id}`;
        return { note: created };
      },
      deleteNote: async ({ params, ctx }) => {
        expectTypeOf(params).toEqualTypeOf<{ readonly id: string }>();
        ctx.stored = ctx.stored.filter((stored) => stored.id !== params.id);
        return { deleted: true };
      },
      importNotes: async ({ request }) => ({ read: (await request.text()).split("\n").length }),
      exportNotes: async ({ ctx }) =>
        new Response(ctx.stored.map((stored) => stored.body).join("\n"), {
          headers: { "content-type": "text/csv" },
        }),
    });
  const server = serveRoutes(implementation, {
    maxBodyBytes: 1024,
    capability: (name, ctx) => name === "deleting" && ctx.deleting,
    audit: {
      open: ({ action, params }) => {
        const record: AuditRecord = { action, params };
        records.push(record);
        return record;
      },
      close: async (record, error) => {
        record.outcome = error === undefined ? "ok" : (error as SvcError).code;
      },
    },
  });
  const ctx: Context = { deleting: true, stored: [] };
  const call = (method: string, path: string, init: RequestInit = {}) =>
    server.handle(new Request(`https://app.test${notes.prefix}${path}`, { method, ...init }), {
      path: path.split("?")[0]!,
      ctx,
    });
  return { call, ctx, records, server };
}

const jsonBody = (value: unknown): RequestInit => ({
  body: JSON.stringify(value),
  headers: { "content-type": "application/json" },
});

describe("serveRoutes", () => {
  it("reads the query through the declaration: numbers, booleans, trimmed text, words", async () => {
    const { call } = setUp();
    const response = await call("GET", "notes?search=%20milk%20&limit=10&pinned=true&order=asc");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      notes: [],
      query: { search: "milk", limit: 10, pinned: true, order: "asc" },
    });
    expect(await (await call("GET", "notes?search=%20%20")).json()).toMatchObject({ query: {} });
  });

  it("refuses an unknown, repeated or ill-formed parameter, every problem at once", async () => {
    const { call } = setUp();
    const response = await call("GET", "notes?limit=0&pinned=yes&order=up&x=1&search=a&search=b");
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { code: string; errors: unknown[]; detail: string };
    expect(problem.code).toBe("VALIDATION_FAILED");
    expect(problem.detail).toMatch(
      /^Invalid request: query\.limit: must be an integer from 1 to 100/,
    );
    expect(problem.errors).toEqual([
      { path: "query.limit", message: "must be an integer from 1 to 100" },
      { path: "query.pinned", message: "must be true or false" },
      { path: "query.order", message: "must be one of asc, desc" },
      { path: "query.x", message: "unknown parameter (known: search, limit, pinned, order)" },
      { path: "query.search", message: "given more than once" },
    ]);
    const none = await call("DELETE", "notes/n1?force=true");
    expect(((await none.json()) as { errors: unknown }).errors).toEqual([
      { path: "query.force", message: "this route takes no query parameters" },
    ]);
  });

  it("reads and checks a JSON body, answers the declared status, and audits the action", async () => {
    const { call, records } = setUp();
    const created = await call("POST", "notes", jsonBody({ body: "milk" }));
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ note: { id: "n1", body: "milk", pinned: false } });
    const again = await call("POST", "notes", jsonBody({ body: "milk" }));
    expect(again.status).toBe(409);
    const invalid = await call("POST", "notes", jsonBody({ body: 1, extra: true }));
    expect(await invalid.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [
        { path: "body.body", message: "expected string, got number" },
        { path: "body.extra", message: "unexpected field" },
      ],
    });
    expect(records).toEqual([
      { action: "note.create", params: {}, detail: "created n1", outcome: "ok" },
      { action: "note.create", params: {}, outcome: "CONFLICT" },
      { action: "note.create", params: {}, outcome: "VALIDATION_FAILED" },
    ]);
  });

  it("refuses a body that is not a JSON object, not JSON, or too large", async () => {
    const { call } = setUp();
    expect((await call("POST", "notes", jsonBody([1]))).status).toBe(400);
    expect((await call("POST", "notes", { body: "body=milk" })).status).toBe(400);
    const large = await call("POST", "notes", jsonBody({ body: "x".repeat(2000) }));
    expect(large.status).toBe(413);
    expect((await call("POST", "notes")).status).toBe(400);
  });

  it("hides a route whose capability is off, and answers 405 with Allow for another method", async () => {
    const { call, ctx } = setUp();
    expect((await call("DELETE", "notes/n1")).status).toBe(200);
    ctx.deleting = false;
    const hidden = await call("DELETE", "notes/n1");
    expect(hidden.status).toBe(404);
    const wrong = await call("PUT", "notes");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
    expect((await call("GET", "nope")).status).toBe(404);
  });

  it("leaves a raw body to the handler and answers a file as the handler built it", async () => {
    const { call } = setUp();
    const imported = await call("POST", "notes/import", {
      body: "a\nb\nc",
      headers: { "content-type": "text/csv" },
    });
    expect(await imported.json()).toEqual({ read: 3 });
    await call("POST", "notes", jsonBody({ body: "milk" }));
    const exported = await call("GET", "notes/export");
    expect(exported.headers.get("content-type")).toBe("text/csv");
    expect(await exported.text()).toBe("milk");
  });

  it("answers a thrown non-SvcError as a 500 without its message", async () => {
    const server = serveRoutes(
      implement(notes)
        .context<Context>()
        .handlers({
          listNotes: async () => {
            throw new Error("secret stack detail");
          },
          createNote: async () => ({ note: { id: "", body: "", pinned: false } }),
          deleteNote: async () => ({ deleted: true }),
          importNotes: async () => ({ read: 0 }),
          exportNotes: async () => new Response(""),
        }),
    );
    const response = await server.handle(new Request("https://app.test/x"), {
      path: "notes",
      ctx: { deleting: false, stored: [] },
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret");
  });
});

describe("what the declarations give besides the router", () => {
  it("a typed client whose requests the server understands", async () => {
    const { server, ctx } = setUp();
    const client = createRouteClient(notes, (request) =>
      server.handle(
        new Request(`https://app.test${request.path}`, {
          method: request.method,
          ...(request.body
            ? { body: request.body.text, headers: { "content-type": request.body.type } }
            : {}),
        }),
        { path: request.path.slice(notes.prefix.length).split("?")[0]!, ctx },
      ),
    );
    const { note: created } = await client.createNote({ body: { body: "bread", pinned: true } });
    expect(created).toEqual({ id: "n1", body: "bread", pinned: true });
    const listed = await client.listNotes({ query: { limit: 5, search: "" } });
    expect(listed.notes).toHaveLength(1);
    expect(listed.query).toEqual({ limit: 5 });
    expect(await client.importNotes({ body: { type: "text/csv", content: "a\nb" } })).toEqual({
      read: 2,
    });
    expect(await (await client.exportNotes()).text()).toBe("bread");
    expect(await client.deleteNote({ params: { id: "n/1" } })).toEqual({ deleted: true });
    await expect(client.createNote({ body: { body: "bread" } })).rejects.toThrow(/already/);
    expectTypeOf(client.deleteNote).parameter(0).toEqualTypeOf<{
      params: { readonly id: string };
      signal?: AbortSignal;
    }>();
  });

  it("an OpenAPI 3.1 document with named schemas and exactly the codes each route can answer", () => {
    const document = routesOpenApi([notes], {
      title: "Notes",
      version: "1",
      bearer: { name: "adminToken", description: "The admin token." },
      always: ["UNAUTHENTICATED"],
      include: (spec) => spec.requires === undefined,
    });
    expect(Object.keys(document.paths)).toEqual([
      "/_svc/admin/notes/notes",
      "/_svc/admin/notes/notes/import",
      "/_svc/admin/notes/notes/export",
    ]);
    const create = document.paths["/_svc/admin/notes/notes"]!.post as {
      responses: Record<string, unknown>;
    };
    expect(create).toMatchObject({
      operationId: "createNote",
      "x-svc-audit-action": "note.create",
      requestBody: { content: { "application/json": { schema: { required: ["body"] } } } },
    });
    expect(Object.keys(create.responses)).toEqual(["201", "400", "401", "409", "413", "500"]);
    expect(create.responses["201"]).toMatchObject({
      content: {
        "application/json": {
          schema: { properties: { note: { $ref: "#/components/schemas/Note" } } },
        },
      },
    });
    expect(create.responses["400"]).toMatchObject({
      content: {
        "application/problem+json": {
          schema: {
            allOf: [{}, { properties: { code: { enum: ["VALIDATION_FAILED", "BAD_REQUEST"] } } }],
          },
        },
      },
    });
    const list = document.paths["/_svc/admin/notes/notes"]!.get as { parameters: unknown[] };
    expect(list.parameters).toContainEqual({
      name: "limit",
      in: "query",
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 100 },
    });
    expect((document.components.schemas as Record<string, unknown>).Note).toMatchObject({
      required: ["id", "body", "pinned"],
    });
    expect(document.security).toEqual([{ adminToken: [] }]);
  });

  it("fake answers that pass the answer's own validator", () => {
    for (const spec of Object.values(notes.routes)) {
      if (spec.answer.kind === "file") continue;
      const answer = spec.answer as typeof notes.routes.createNote.answer;
      const fake = fakeOf(answer, { body: "example" });
      expect(answer["~standard"].validate(fake), spec.path).toEqual({ value: fake });
    }
    expect(fakeOf(notes.routes.createNote.answer, { body: "hi" })).toEqual({
      note: { id: "text", body: "hi", pinned: false },
    });
    const nullable = v.object({
      image: v.union(v.string(), v.null()),
      kind: v.union(v.literal("a"), v.literal("b")),
    });
    expect(fakeOf(nullable)).toEqual({ image: null, kind: "a" });
  });

  it("a docs table with one row per route", () => {
    const table = routesMarkdownTable(notes).split("\n");
    expect(table).toHaveLength(2 + 5);
    expect(table[3]).toBe(
      "| POST | `notes` | Create a note | `{ body: string, pinned?: boolean }` | `201 { note: Note }` | 409 CONFLICT | `note.create` |  |",
    );
    expect(table[2]).toContain("`?search=&limit=integer 1–100&pinned=boolean&order=asc\\|desc`");
  });
});
