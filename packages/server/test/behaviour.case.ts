import { describe, expect, it } from "vitest";
import type { Call } from "./transports.ts";

/**
 * The behaviour RPC and REST share, written once and run over both (Hono's
 * `common.case.test.ts` pattern): identity, middleware, validation, RLS on
 * reads and writes, errors, transactions. Only the encoding may differ, and
 * the adapter hides it. Shard keys carry the transport's name so the two
 * runs never see each other's rows.
 */
export function sharedBehaviour(transport: string, call: Call): void {
  const shard = (name: string) => `${transport}-${name}`;
  const value = async (path: string, args: unknown, options?: Parameters<Call>[2]) => {
    const result = await call(path, args, options);
    expect(result.status, `${path}: ${result.text}`).toBe(200);
    return result.value;
  };
  const send = (user: string, body: string, shardKey: string) =>
    value("messages:send", { body }, { user, shardKey }) as Promise<string>;

  describe(`shared behaviour over ${transport}`, () => {
    it("passes the identity through to ctx.auth, anonymous included", async () => {
      expect(await value("notes:whoami", {}, { user: "ann" })).toEqual({
        userId: "ann",
        identity: { userId: "ann", name: "User ann" },
      });
      expect(await value("notes:whoami", {})).toEqual({ userId: null, identity: null });
    });

    it("lets middleware refuse with its code, as problem details", async () => {
      const result = await call("notes:echo", { word: "secret" });
      expect(result.status).toBe(403);
      expect(result.contentType).toBe("application/problem+json");
      expect(result.problem).toMatchObject({ code: "FORBIDDEN", detail: "no secrets" });
    });

    it("reports every validation issue with its path", async () => {
      const result = await call("notes:add", { text: 1, n: "2", evil: true });
      expect(result.status).toBe(400);
      expect(result.problem).toMatchObject({
        code: "VALIDATION_FAILED",
        detail: "args.text: expected string, got number (and 2 more)",
        errors: [
          { path: "args.text", message: "expected string, got number" },
          { path: "args.n", message: "expected number, got string" },
          { path: "args.evil", message: "unexpected field" },
        ],
      });
    });

    it("enforces v.* bounds, lengths in code points, with a path for each broken bound", async () => {
      const inBounds = { name: "😀😀😀", code: "room-7", count: 10, ratio: 0 };
      expect(await value("rest:bounded", inBounds)).toEqual(inBounds);
      const result = await call("rest:bounded", {
        name: "x",
        code: "Room-7",
        count: 2.5,
        ratio: 1.5,
      });
      expect(result.status).toBe(400);
      expect(result.problem).toMatchObject({
        code: "VALIDATION_FAILED",
        errors: [
          { path: "args.name", message: "expected at least 2 characters, got 1" },
          { path: "args.code", message: "expected text matching /^[a-z]+-\\d+$/" },
          { path: "args.count", message: "expected an integer" },
          { path: "args.ratio", message: "expected at most 1" },
        ],
      });
      const tooLong = await call("rest:bounded", { name: "abcdef", count: 11 });
      expect(tooLong.problem?.errors).toEqual([
        { path: "args.name", message: "expected at most 5 characters" },
        { path: "args.count", message: "expected at most 10" },
      ]);
    });

    it("runs no pattern on text over its maxLength (issue 53, point 5)", async () => {
      const started = Date.now();
      const result = await call("rest:bounded", { name: "ab", slug: `${"a".repeat(27)}!` });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(result.status).toBe(400);
      expect(result.problem?.errors).toEqual([
        { path: "args.slug", message: "expected at most 10 characters" },
      ]);
      const inBounds = await call("rest:bounded", { name: "ab", slug: "aaaaaaaaa!" });
      expect(inBounds.problem?.errors).toEqual([
        { path: "args.slug", message: "expected text matching /^(a+)+$/" },
      ]);
    });

    it("turns a thrown Error into INTERNAL without leaking its message, and the shard keeps serving", async () => {
      const result = await call("notes:crash", {}, { shardKey: shard("crash") });
      expect(result.status).toBe(500);
      expect(result.text).not.toContain("hunter2");
      expect(result.problem).toMatchObject({
        code: "INTERNAL",
        detail: "An internal error occurred.",
      });
      expect(await value("notes:add", { text: "after" }, { shardKey: shard("crash") })).toMatch(
        /^notes_/,
      );
    });

    it("treats a result that breaks .output() as a server error", async () => {
      const result = await call("notes:badOutput", {});
      expect(result.status).toBe(500);
      expect(result.problem).toMatchObject({ code: "INTERNAL" });
    });

    it("hides other users' rows: a write to one answers exactly like a missing id, changing nothing", async () => {
      const shardKey = shard("rls");
      const id = await send("ann", "original", shardKey);
      const deleted = await send("bob", "bob's", shardKey);
      await value("messages:remove", { id: deleted }, { user: "bob", shardKey });
      expect(await value("messages:get", { id }, { user: "bob", shardKey })).toBeNull();
      for (const [path, args] of [
        ["messages:edit", { body: "hijacked" }],
        ["messages:remove", {}],
      ] as const) {
        // Ann's hidden row, a deleted row, and an id that never existed: the same bytes.
        const answers = await Promise.all(
          [id, deleted, "messages_00000000000000000000000000"].map((target) =>
            call(path, { ...args, id: target }, { user: "bob", shardKey }),
          ),
        );
        for (const answer of answers) {
          expect(answer.status, path).toBe(404);
          expect(answer.problem).toMatchObject({ code: "NOT_FOUND" });
          expect([answer.contentType, answer.text]).toEqual([
            answers[2]?.contentType,
            answers[2]?.text,
          ]);
        }
      }
      const insert = await call(
        "messages:send",
        { body: "as ann", author: "ann" },
        { user: "bob", shardKey },
      );
      expect(insert.status).toBe(403);
      expect(insert.problem).toMatchObject({ code: "FORBIDDEN" });
      const annSees = (await value("messages:list", {}, { user: "ann", shardKey })) as {
        body: string;
      }[];
      expect(annSees.map((m) => m.body)).toEqual(["original"]);
    });

    it("refuses with FORBIDDEN a write to a row the caller can read but not write", async () => {
      const shardKey = shard("board");
      const id = (await value("posts:add", { body: "hello" }, { user: "ann", shardKey })) as string;
      for (const [path, args] of [
        ["posts:edit", { id, body: "hijacked" }],
        ["posts:remove", { id }],
      ] as const) {
        const result = await call(path, args, { user: "bob", shardKey });
        expect(result.status, path).toBe(403);
        expect(result.problem).toMatchObject({ code: "FORBIDDEN" });
      }
      await value("posts:edit", { id, body: "edited" }, { user: "ann", shardKey });
      await value("posts:remove", { id }, { user: "ann", shardKey });
      const gone = await call("posts:remove", { id }, { user: "ann", shardKey });
      expect(gone.status).toBe(404);
    });

    it("lets the owner patch and delete, and answers NOT_FOUND for unknown or malformed ids", async () => {
      const shardKey = shard("owner");
      const id = await send("ann", "v1", shardKey);
      await value("messages:edit", { id, body: "v2" }, { user: "ann", shardKey });
      expect(await value("messages:get", { id }, { user: "ann", shardKey })).toMatchObject({
        body: "v2",
      });
      await value("messages:remove", { id }, { user: "ann", shardKey });
      expect(await value("messages:get", { id }, { user: "ann", shardKey })).toBeNull();
      expect((await call("messages:remove", { id }, { user: "ann", shardKey })).status).toBe(404);
      const malformed = await call(
        "messages:edit",
        { id: "not-an-id", body: "x" },
        { user: "ann", shardKey },
      );
      expect(malformed.status).toBe(404);
    });

    it("leaves the table unchanged when a mutation throws after writing", async () => {
      const shardKey = shard("tx");
      await send("ann", "keep", shardKey);
      const result = await call(
        "messages:sendThenFail",
        { body: "gone" },
        { user: "ann", shardKey },
      );
      expect(result.status).toBe(409);
      const rows = (await value("messages:list", {}, { user: "ann", shardKey })) as {
        body: string;
      }[];
      expect(rows.map((m) => m.body)).toEqual(["keep"]);
    });
  });
}
