import { describe, expect, it } from "vitest";
import { rpc, rpcValue } from "./rpc.ts";

type Message = { _id: string; _creationTime: number; author: string; body: string };

async function send(
  user: string,
  body: string,
  shardKey?: string,
  channel?: string,
): Promise<string> {
  return rpcValue<string>(
    "messages:send",
    { body, ...(channel === undefined ? {} : { channel }) },
    { user, ...(shardKey ? { shardKey } : {}) },
  );
}

describe("ctx.db with RLS", () => {
  it("hides other users' rows from collect, get, withIndex and paginate", async () => {
    const shardKey = "rls-read";
    const annId = await send("ann", "hello from ann", shardKey);
    await send("bob", "hello from bob", shardKey);
    await send("bob", "second from bob", shardKey);

    const annSees = await rpcValue<Message[]>("messages:list", {}, { user: "ann", shardKey });
    expect(annSees.map((m) => m.body)).toEqual(["hello from ann"]);
    expect(await rpcValue<Message[]>("messages:list", {}, { user: "bob", shardKey })).toHaveLength(
      2,
    );
    expect(await rpcValue<Message[]>("messages:list", {}, { shardKey })).toEqual([]);

    expect(await rpcValue("messages:get", { id: annId }, { user: "bob", shardKey })).toBeNull();
    expect(
      await rpcValue<Message>("messages:get", { id: annId }, { user: "ann", shardKey }),
    ).toMatchObject({ body: "hello from ann" });

    expect(
      await rpcValue("messages:byAuthor", { author: "bob" }, { user: "ann", shardKey }),
    ).toEqual([]);
    const page = await rpcValue<{ page: Message[]; isDone: boolean }>(
      "messages:page",
      { cursor: null, numItems: 10 },
      { user: "ann", shardKey },
    );
    expect(page.page.map((m) => m.author)).toEqual(["ann"]);
    expect(page.isDone).toBe(true);
  });

  it("applies RLS to internal procedures unless they opt out explicitly", async () => {
    const shardKey = "internal-rls";
    await send("ann", "a", shardKey);
    await send("bob", "b", shardKey);
    expect(await rpcValue("messages:countEverything", {}, { user: "ann", shardKey })).toEqual({
      visible: 1,
      all: 2,
    });
  });
});

describe("pagination", () => {
  it.each(["asc", "desc"] as const)(
    "pages an index with NULL keys %s: each row once, NULLs first ascending and last descending",
    async (order) => {
      const shardKey = `null-keys-${order}`;
      const sent: { body: string; channel: string | undefined }[] = [];
      for (let i = 0; i < 9; i++) {
        // Every third message has no channel: its index key is NULL.
        const channel = i % 3 === 0 ? undefined : `c${i % 2}`;
        await send("ann", `m${i}`, shardKey, channel);
        sent.push({ body: `m${i}`, channel });
      }
      await send("bob", "hidden", shardKey); // RLS hides it from ann, NULL key or not
      const seen: Message[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 20; pages++) {
        const result: { page: Message[]; isDone: boolean; continueCursor: string } = await rpcValue(
          "messages:pageByChannel",
          { order, cursor, numItems: 2 },
          { user: "ann", shardKey },
        );
        seen.push(...result.page);
        if (result.isDone) break;
        cursor = result.continueCursor;
      }
      const rank = (m: { channel?: string | undefined }) => m.channel ?? "";
      const expected = [...sent].sort((a, b) => rank(a).localeCompare(rank(b)));
      if (order === "desc") {
        // Descending reverses the whole key (channel, then creation time).
        expected.reverse();
      }
      expect(seen.map((m) => m.body)).toEqual(expected.map((m) => m.body));
    },
  );

  it("pages through every visible row exactly once, skipping hidden ones", async () => {
    const shardKey = "pages";
    const mine: string[] = [];
    for (let i = 0; i < 23; i++) {
      mine.push(await send("ann", `m${i}`, shardKey));
      if (i % 3 === 0) await send("bob", `noise${i}`, shardKey);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const result: { page: Message[]; isDone: boolean; continueCursor: string } = await rpcValue(
        "messages:page",
        { cursor, numItems: 5 },
        { user: "ann", shardKey },
      );
      expect(result.page.length).toBeLessThanOrEqual(5);
      seen.push(...result.page.map((m) => m._id));
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
    expect(seen).toEqual(mine);
  });

  it("refuses a tampered cursor with BAD_REQUEST", async () => {
    const response = await rpc(
      "messages:page",
      { cursor: "bm90LWEtY3Vyc29y", numItems: 5 },
      { user: "ann" },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("indexes and ordering", () => {
  it("ranges over an index in both orders", async () => {
    const shardKey = "index-order";
    for (const n of [5, 1, 3, 4, 2])
      await rpcValue("notes:add", { text: `n${n}`, n }, { shardKey });
    await rpcValue("notes:add", { text: "no n" }, { shardKey });
    const asc = await rpcValue<{ n: number }[]>(
      "notes:byN",
      { min: 3, order: "asc" },
      { shardKey },
    );
    expect(asc.map((doc) => doc.n)).toEqual([3, 4, 5]);
    const desc = await rpcValue<{ n: number }[]>(
      "notes:byN",
      { min: 2, order: "desc" },
      { shardKey },
    );
    expect(desc.map((doc) => doc.n)).toEqual([5, 4, 3, 2]);
  });

  it("keeps insertion order for documents created in the same millisecond", async () => {
    const shardKey = "same-ms";
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(await rpcValue<string>("notes:add", { text: `t${i}` }, { shardKey }));
    const all = await rpcValue<{ _id: string }[]>("notes:all", {}, { shardKey });
    expect(all.map((doc) => doc._id)).toEqual(ids);
  });

  it("stores int64 values exactly", async () => {
    const shardKey = "int64";
    await rpcValue(
      "notes:add",
      { text: "big", big: { $int64: "9223372036854775807" } },
      { shardKey },
    );
    const [doc] = await rpcValue<{ big: unknown }[]>("notes:all", {}, { shardKey });
    expect(doc?.big).toEqual({ $int64: "9223372036854775807" });
  });
});

describe("transactions", () => {
  it("rolls back a failing nested mutation but keeps the outer one's writes", async () => {
    const shardKey = "tx-nested";
    await rpcValue("notes:nested", {}, { shardKey });
    expect(
      (await rpcValue<{ text: string }[]>("notes:all", {}, { shardKey })).map((n) => n.text),
    ).toEqual(["outer"]);
  });

  it("lets an action write through an internal mutation and read it back", async () => {
    const shardKey = "action";
    const result = await rpcValue<{ id: string; count: number }>(
      "notes:addViaAction",
      { text: "via action" },
      { shardKey },
    );
    expect(result.count).toBe(1);
    expect(result.id).toMatch(/^notes_[0-9a-z]{26}$/);
  });

  it("serialises concurrent mutations so none is lost", async () => {
    const shardKey = "concurrent";
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => rpcValue("notes:add", { text: `c${i}` }, { shardKey })),
    );
    expect(await rpcValue<unknown[]>("notes:all", {}, { shardKey })).toHaveLength(40);
  });
});

describe("shards", () => {
  it("gives two shard keys two separate databases, query parameter winning over the header", async () => {
    await rpcValue("notes:add", { text: "in a" }, { shardKey: "shard-a" });
    await rpcValue("notes:add", { text: "in b" }, { headers: { "x-svc-shard-key": "shard-b" } });
    expect(
      (await rpcValue<{ text: string }[]>("notes:all", {}, { shardKey: "shard-a" })).map(
        (n) => n.text,
      ),
    ).toEqual(["in a"]);
    const headerLoses = await rpcValue<{ text: string }[]>(
      "notes:all",
      {},
      {
        shardKey: "shard-a",
        headers: { "x-svc-shard-key": "shard-b" },
      },
    );
    expect(headerLoses.map((n) => n.text)).toEqual(["in a"]);
    expect(
      (
        await rpcValue<{ text: string }[]>(
          "notes:all",
          {},
          { headers: { "x-svc-shard-key": "shard-b" } },
        )
      ).map((n) => n.text),
    ).toEqual(["in b"]);
    expect(await rpcValue("notes:echo", { word: "w" }, { shardKey: "shard-a" })).toMatchObject({
      shard: "shard-a",
    });
  });
});
