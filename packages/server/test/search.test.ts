import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { applySearchIndexes } from "../src/db/search/fts-tables.ts";
import schema from "./fixture/schema.ts";
import { oldId, shardOf } from "./migration-support.ts";
import { rpc, rpcValue } from "./rpc.ts";

type Article = { _id: string; body: string; author: string; channel?: string };

/** A shard of its own per test: search results depend on every document in it. */
const shard = (name: string) => ({ shardKey: `search-${name}` });

async function write(key: { shardKey: string }, user: string, body: string, channel?: string) {
  return rpcValue<string>("articles:write", channel === undefined ? { body } : { body, channel }, {
    ...key,
    user,
  });
}

async function search(
  key: { shardKey: string },
  user: string | undefined,
  args: { text: string; channel?: string; limit?: number },
): Promise<string[]> {
  const found = await rpcValue<Article[]>("articles:search", args, {
    ...key,
    ...(user ? { user } : {}),
  });
  return found.map((article) => article.body);
}

describe("search indexes", () => {
  it("answers matching documents, most relevant first, ties oldest first", async () => {
    const key = shard("relevance");
    await write(key, "ann", "a note about lunch");
    await write(key, "ann", "deploy notes: deploy the deploy script");
    await write(key, "ann", "we deploy on friday, with a long tail of other words in it");
    await write(key, "ann", "deploy today");
    await write(key, "ann", "deploy today");
    const found = await rpcValue<Article[]>(
      "articles:search",
      { text: "deploy" },
      {
        ...key,
        user: "ann",
      },
    );
    expect(found.map((article) => article.body)).toEqual([
      "deploy notes: deploy the deploy script",
      "deploy today",
      "deploy today",
      "we deploy on friday, with a long tail of other words in it",
    ]);
    // Equal scores: the older document first.
    const [first, second] = [found[1] as Article, found[2] as Article];
    const created = (article: Article) =>
      (article as unknown as { _creationTime: number })._creationTime;
    expect(created(first)).toBeLessThan(created(second));
  });

  it("matches every word, the last one as a prefix, case and diacritics folded", async () => {
    const key = shard("words");
    await write(key, "ann", "Café au lait");
    await write(key, "ann", "cafeteria menu");
    await write(key, "ann", "lait cru");
    // The shorter document ranks first (BM25 weighs a match in a short text higher).
    expect(await search(key, "ann", { text: "cafe" })).toEqual(["cafeteria menu", "Café au lait"]);
    expect(await search(key, "ann", { text: "CAFÉ LAI" })).toEqual(["Café au lait"]);
    expect(await search(key, "ann", { text: "lait caf" })).toEqual(["Café au lait"]);
    expect(await search(key, "ann", { text: "menu lait" })).toEqual([]);
  });

  it("narrows by filter fields", async () => {
    const key = shard("filters");
    await write(key, "ann", "release checklist", "ops");
    await write(key, "ann", "release party", "social");
    await write(key, "ann", "release notes");
    expect(await search(key, "ann", { text: "release", channel: "ops" })).toEqual([
      "release checklist",
    ]);
    expect(await search(key, "ann", { text: "release", channel: "none" })).toEqual([]);
    expect((await search(key, "ann", { text: "release" })).sort()).toEqual([
      "release checklist",
      "release notes",
      "release party",
    ]);
  });

  it("never answers another user's rows (RLS inside the search's SQL)", async () => {
    const key = shard("rls");
    await write(key, "ann", "secret plan alpha");
    await write(key, "bob", "secret plan beta");
    for (let i = 0; i < 30; i++) await write(key, "bob", `secret ${i}`);
    expect(await search(key, "ann", { text: "secret", limit: 5 })).toEqual(["secret plan alpha"]);
    expect(await search(key, "bob", { text: "secret plan" })).toEqual(["secret plan beta"]);
    expect(await search(key, undefined, { text: "secret" })).toEqual([]);
    // Bob's rows are not counted towards Ann's limit either: RLS runs before take().
    expect(await search(key, "ann", { text: "secret", limit: 1 })).toEqual(["secret plan alpha"]);
  });

  it("gives away nothing of hidden rows in a page's cursor", async () => {
    const key = shard("cursor-leak");
    await write(key, "ann", "secret plan alpha");
    await write(key, "ann", "secret plan gamma, a longer one");
    const firstPage = async () => {
      const page: { page: Article[]; continueCursor: string } = await rpcValue(
        "articles:searchPage",
        { text: "secret", paginationOpts: { cursor: null, numItems: 1 } },
        { ...key, user: "ann" },
      );
      return { bodies: page.page.map((article) => article.body), cursor: page.continueCursor };
    };
    const before = await firstPage();
    // Bob's rows weigh the word `secret` in the shard's index; Ann may not see them.
    for (let i = 0; i < 20; i++) await write(key, "bob", `secret ${i}`);
    const after = await firstPage();
    expect(after.bodies).toEqual(before.bodies);
    // A cursor that held the last row's score changed here: it told Ann how many hidden rows hold the word.
    expect(after.cursor).toBe(before.cursor);
  });

  it("ranks the newest 1,000 matches the caller may see: RLS applies before the bound", async () => {
    const key = shard("window");
    await write(key, "ann", "needle in the oldest article");
    await runInDurableObject(shardOf(key.shardKey), (_instance, state) => {
      state.storage.transactionSync(() => {
        // Newer than Ann's: 1,100 of Bob's and 1,100 of Carol's, every one a match.
        for (let i = 0; i < 2_200; i++) {
          const doc = JSON.stringify({ author: i % 2 ? "bob" : "carol", body: `needle ${i}` });
          state.storage.sql.exec(
            'INSERT INTO "t_articles" VALUES (?, ?, ?)',
            oldId("articles"),
            Date.now() + 60_000 + i,
            doc,
          );
        }
      });
    });
    expect(await search(key, "ann", { text: "needle" })).toEqual(["needle in the oldest article"]);
    const bobs = await search(key, "bob", { text: "needle", limit: 5_000 });
    expect(bobs).toHaveLength(1_000);
    // The newest 1,000 of Bob's 1,100 (odd numbers): needle 201 … needle 2199.
    expect(bobs).not.toContain("needle 199");
    expect(bobs).toContain("needle 201");
  });

  it("weighs a rare word over one in every document, past 1,000 matches of it", async () => {
    const key = shard("weights");
    // Equal words, equal length: only the words' weights (BM25's idf) can order these two.
    await write(key, "ann", "common common common rare");
    await write(key, "ann", "common rare rare rare");
    await runInDurableObject(shardOf(key.shardKey), (_instance, state) => {
      state.storage.transactionSync(() => {
        for (let i = 0; i < 1_500; i++) {
          const doc = JSON.stringify({ author: "ann", body: `common filler ${i}` });
          state.storage.sql.exec(
            'INSERT INTO "t_articles" VALUES (?, ?, ?)',
            oldId("articles"),
            Date.now() + 60_000 + i,
            doc,
          );
        }
      });
    });
    // `common` is in all 1,502 documents (counted from its newest 1,000 matches), `rare` in 2.
    expect(await search(key, "ann", { text: "common rare" })).toEqual([
      "common rare rare rare",
      "common common common rare",
    ]);
    expect(await search(key, "ann", { text: "rare common" })).toEqual([
      "common rare rare rare",
      "common common common rare",
    ]);
  });

  it("hides rows a function read policy refuses, checked after the search", async () => {
    const key = shard("function-policy");
    await rpcValue("messages:send", { body: "quarterly plan by ann" }, { ...key, user: "ann" });
    await rpcValue("messages:send", { body: "quarterly plan by bob" }, { ...key, user: "bob" });
    const found = await rpcValue<{ body: string }[]>(
      "messages:search",
      { text: "quarterly plan" },
      { ...key, user: "bob" },
    );
    expect(found.map((message) => message.body)).toEqual(["quarterly plan by bob"]);
  });

  it("keeps the index in step with patches and deletes, in the same transaction", async () => {
    const key = shard("writes");
    const id = await write(key, "ann", "first draft");
    await rpcValue("articles:edit", { id, body: "final version" }, { ...key, user: "ann" });
    expect(await search(key, "ann", { text: "draft" })).toEqual([]);
    expect(await search(key, "ann", { text: "final" })).toEqual(["final version"]);
    await rpcValue("articles:remove", { id }, { ...key, user: "ann" });
    expect(await search(key, "ann", { text: "final" })).toEqual([]);
  });

  it.each([
    ['"', []],
    ['"quoted', ['he said "quoted" twice']],
    ["*", []],
    ["NEAR(alpha beta)", []],
    ["alpha NEAR beta", []],
    ["-alpha", ["alpha OR gamma", "alpha beta"]],
    ["alpha OR", ["alpha OR gamma"]],
    ["alpha AND gamma", []],
    ["NOT alpha", []],
    ["body:alpha", []],
    ["(alpha", ["alpha OR gamma", "alpha beta"]],
    ["alpha)", ["alpha OR gamma", "alpha beta"]],
    ["^alpha +beta", ["alpha beta"]],
    ["'; DROP TABLE t_articles; --", []],
    // FTS5 reads its query as a C string: a NUL would end it mid-quote.
    ["alpha\u0000beta", ["alpha beta"]],
    ["\ud800alpha", ["alpha OR gamma", "alpha beta"]],
    ["🦊 alpha", []],
  ])("searches %j as plain text, never as FTS5 syntax", async (text, expected) => {
    const key = shard("syntax");
    if ((await search(key, "ann", { text: "alpha" })).length === 0) {
      await write(key, "ann", "alpha beta");
      await write(key, "ann", "alpha OR gamma");
      await write(key, "ann", 'he said "quoted" twice');
    }
    const response = await rpc("articles:search", { text }, { ...key, user: "ann" });
    expect(response.status).toBe(200);
    const { value } = (await response.json()) as { value: Article[] };
    expect(value.map((article) => article.body).sort()).toEqual(expected);
  });

  it.each([
    ["", "The search text is empty."],
    ["   \n\t ", "The search text is empty."],
    ["x".repeat(1_001), "The search text is 1001 characters long; at most 1000 are searched."],
    ["w ".repeat(33), "The search text has 33 words; at most 32 are searched."],
  ])("refuses bad text %# with a coded 400", async (text, detail) => {
    const response = await rpc("articles:search", { text }, { ...shard("bad"), user: "ann" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; detail: string };
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.detail).toBe(detail);
  });

  it("pages through results in relevance order without repeats", async () => {
    const key = shard("pages");
    for (let i = 1; i <= 7; i++) await write(key, "ann", `${"topic ".repeat(i)}${i}`);
    const everything = await search(key, "ann", { text: "topic" });
    expect(everything).toHaveLength(7);
    const pages: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: { page: Article[]; isDone: boolean; continueCursor: string } = await rpcValue(
        "articles:searchPage",
        { text: "topic", paginationOpts: { cursor, numItems: 3 } },
        { ...key, user: "ann" },
      );
      pages.push(...page.page.map((article) => article.body));
      if (page.isDone) break;
      cursor = page.continueCursor;
    }
    expect(pages).toEqual(everything);
    // A pinned page (as usePaginatedQuery keeps every loaded page but the last) answers the same rows.
    const first: { page: Article[]; continueCursor: string } = await rpcValue(
      "articles:searchPage",
      { text: "topic", paginationOpts: { cursor: null, numItems: 3 } },
      { ...key, user: "ann" },
    );
    const pinned: { page: Article[]; isDone: boolean } = await rpcValue(
      "articles:searchPage",
      {
        text: "topic",
        paginationOpts: { cursor: null, numItems: 1, endCursor: first.continueCursor },
      },
      { ...key, user: "ann" },
    );
    expect(pinned.page.map((article) => article.body)).toEqual(everything.slice(0, 3));
    expect(pinned.isDone).toBe(false);
  });

  it("answers the same over REST `.expose`", async () => {
    const key = shard("rest");
    await write(key, "ann", "rest is best");
    const response = await exports.default.fetch(
      `http://svc.test/_svc/rest/articles/search?shardKey=${key.shardKey}&text=${encodeURIComponent('"rest" OR')}`,
      { headers: { "x-test-user": "ann" } },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as Article[]).map((article) => article.body)).toEqual([]);
    const plain = await exports.default.fetch(
      `http://svc.test/_svc/rest/articles/search?shardKey=${key.shardKey}&text=best`,
      { headers: { "x-test-user": "ann" } },
    );
    expect(((await plain.json()) as Article[]).map((article) => article.body)).toEqual([
      "rest is best",
    ]);
  });

  it("updates a live search when a matching document is inserted", async () => {
    const key = shard("live");
    await write(key, "ann", "kickoff meeting");
    const response = await exports.default.fetch(
      `http://svc.test/_svc/ws?shardKey=${key.shardKey}`,
      {
        headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1", "x-test-user": "ann" },
      },
    );
    expect(response.status).toBe(101);
    const ws = response.webSocket as WebSocket;
    ws.accept();
    const values: string[][] = [];
    let wake = () => {};
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data as string) as { type: string; value?: Article[] };
      if (frame.type === "value") values.push((frame.value ?? []).map((row) => row.body));
      wake();
    });
    const nextValue = async (count: number) => {
      const deadline = Date.now() + 5_000;
      while (values.length < count) {
        if (Date.now() > deadline) throw new Error(`no value ${count}: ${JSON.stringify(values)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return values[count - 1];
    };
    ws.send(
      JSON.stringify({
        type: "subscribe",
        id: "s",
        path: "articles:search",
        args: { text: "meet" },
      }),
    );
    expect(await nextValue(1)).toEqual(["kickoff meeting"]);
    await write(key, "ann", "meetup on thursday");
    expect(await nextValue(2)).toEqual(["kickoff meeting", "meetup on thursday"]);
    ws.close();
  });

  it.each([
    [{ index: "nope", field: "body", text: "x" }, 'Table articles has no search index "nope".'],
    [
      { index: "search_body", field: "author", text: "x" },
      'withSearchIndex("search_body"): search() is on body, got author',
    ],
    [
      { index: "search_body", field: "body", text: "x", eq: [["body", "x"]] },
      'withSearchIndex("search_body"): body is not a filter field of this index',
    ],
    [{ index: "search_body", field: "body", text: 42 }, "The search text must be a string."],
    [
      { index: "search_body", field: "body", text: "x", order: true },
      "A search answers in relevance order: order() is not used.",
    ],
  ])("answers misuse %# with a coded 400", async (args, detail) => {
    const response = await rpc("articles:looseSearch", args, { ...shard("misuse"), user: "ann" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", detail });
  });

  it("builds an index added to a table with documents, answering 503 to searches until then", async () => {
    const key = shard("added-later");
    await write(key, "ann", "bulk one");
    const deferred = await runInDurableObject(shardOf(key.shardKey), (_instance, state) => {
      const { sql } = state.storage;
      // As if the documents were stored before the schema declared the index.
      for (const trigger of sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        .toArray())
        sql.exec(`DROP TRIGGER "${trigger.name}"`);
      const fts = sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE name LIKE 's\\_articles\\_\\_%' ESCAPE '\\' AND sql LIKE 'CREATE VIRTUAL%'",
        )
        .one().name;
      sql.exec(`DROP TABLE "${fts}"`);
      state.storage.transactionSync(() => {
        for (let i = 0; i < 200; i++) {
          const doc = JSON.stringify({ author: i % 2 === 0 ? "ann" : "bob", body: `bulk ${i}` });
          sql.exec('INSERT INTO "t_articles" VALUES (?, ?, ?)', oldId("articles"), i, doc);
        }
      });
      const later = applySearchIndexes(sql, "articles", schema.tables.articles.searchIndexes, 100);
      return { fts, later };
    });
    expect(deferred.later.map((index) => index.sqlName)).toEqual([deferred.fts]);
    const building = await rpc("articles:search", { text: "bulk" }, { ...key, user: "ann" });
    expect(building.status).toBe(503);
    expect(await building.json()).toMatchObject({
      code: "UNAVAILABLE",
      detail: 'The search index "search_body" is still being built; try again shortly.',
    });
    expect((await rpc("articles:latest", {}, { ...key, user: "ann" })).status).toBe(200);
    await runInDurableObject(shardOf(key.shardKey), (_instance, state) => {
      for (const index of deferred.later) state.storage.sql.exec(index.statement);
    });
    expect(await search(key, "ann", { text: "bulk", limit: 1_000 })).toHaveLength(101);
    await write(key, "ann", "bulk after the build");
    expect(await search(key, "ann", { text: "bulk after" })).toEqual(["bulk after the build"]);
  });
});
