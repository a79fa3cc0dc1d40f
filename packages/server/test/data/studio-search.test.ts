import { describe, expect, it } from "vitest";
import { rpcValue } from "../rpc.ts";
import { DATA, dataJson, registryRow } from "./admin.ts";

type Page = {
  documents: { body: string; author: string }[];
  nextCursor: string | null;
  plan: { index: string; order: string; served: string; eqFields: string[]; scanFields: string[] };
};
type Problem = { code: string; errors?: { path: string; message: string }[] };

const documentsOf = (key: string, query: string) =>
  `shards/${key}/tables/articles/documents?${query}`;

/** A registered shard with articles by ann and bob. */
async function shardWithArticles(key: string): Promise<void> {
  const articles: [string, string, string?][] = [
    ["ann", "deploy checklist for friday", "ops"],
    ["ann", "deploy deploy deploy", "ops"],
    ["ann", "lunch plans"],
    ["bob", "deploy notes", "ops"],
    ["bob", "deploy party", "social"],
  ];
  for (const [user, body, channel] of articles) {
    await rpcValue("articles:write", channel === undefined ? { body } : { body, channel }, {
      user,
      shardKey: key,
      headers: DATA,
    });
  }
  await registryRow(key, articles.length);
}

describe("data studio search", () => {
  it("lists a table's search indexes and searches with one, by relevance, as the operator or a user", async () => {
    const key = "studio-search";
    await shardWithArticles(key);
    const { tables } = await dataJson<{ tables: { name: string; searchIndexes: unknown[] }[] }>(
      "GET",
      `shards/${key}/tables`,
      200,
    );
    expect(tables.find((table) => table.name === "articles")?.searchIndexes).toEqual([
      { name: "search_body", searchField: "body", filterFields: ["channel", "author"] },
    ]);
    expect(tables.find((table) => table.name === "notes")?.searchIndexes).toEqual([]);

    const operator = await dataJson<Page>("GET", documentsOf(key, "search=depl"), 200);
    expect(operator.documents.map((doc) => doc.body)).toEqual([
      "deploy deploy deploy",
      "deploy notes",
      "deploy party",
      "deploy checklist for friday",
    ]);
    expect(operator.plan).toMatchObject({
      index: "search_body",
      order: "relevance",
      served: "index",
    });

    const filter = encodeURIComponent(JSON.stringify({ channel: "ops", body: "deploy notes" }));
    const narrowed = await dataJson<Page>(
      "GET",
      documentsOf(key, `search=deploy&searchIndex=search_body&filter=${filter}`),
      200,
    );
    expect(narrowed.documents.map((doc) => doc.body)).toEqual(["deploy notes"]);
    expect(narrowed.plan).toMatchObject({
      eqFields: ["channel"],
      scanFields: ["body"],
      served: "scan",
    });

    const asAnn = await dataJson<Page>(
      "GET",
      documentsOf(key, "search=deploy&asUser=ann%40example.com"),
      200,
    );
    expect(asAnn.documents.map((doc) => doc.author)).toEqual(["ann", "ann"]);

    const paged = await dataJson<Page>("GET", documentsOf(key, "search=deploy&limit=3"), 200);
    expect(paged.documents).toHaveLength(3);
    const rest = await dataJson<Page>(
      "GET",
      documentsOf(
        key,
        `search=deploy&limit=3&cursor=${encodeURIComponent(paged.nextCursor ?? "")}`,
      ),
      200,
    );
    expect([...paged.documents, ...rest.documents].map((doc) => doc.body)).toEqual(
      operator.documents.map((doc) => doc.body),
    );
    expect(rest.nextCursor).toBeNull();
  });

  it.each([
    ["search=x&order=desc", "query.order"],
    ["search=x&index=by_creation_time", "query.index"],
    ["search=x&searchIndex=nope", "query.searchIndex"],
  ])("refuses %s with a 400 naming the parameter", async (query, path) => {
    // A shard per case: with one shared, the registry's count moves past 1 on the
    // case's own write, as soon as the previous case's write is reported.
    const key = `studio-search-bad-${path}`;
    await rpcValue("articles:write", { body: "x" }, { user: "ann", shardKey: key, headers: DATA });
    await registryRow(key, 1);
    const problem = await dataJson<Problem>("GET", documentsOf(key, query), 400);
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });

  it("answers a table without a search index, or FTS5 syntax, without a 500", async () => {
    const key = "studio-search-plain";
    await rpcValue(
      "articles:write",
      { body: 'say "hi" NEAR(x' },
      { user: "ann", shardKey: key, headers: DATA },
    );
    await registryRow(key, 1);
    const none = await dataJson<Problem>(
      "GET",
      `shards/${key}/tables/notes/documents?search=x`,
      400,
    );
    expect(none.errors?.map((error) => error.path)).toEqual(["query.search"]);
    const syntax = await dataJson<Page>(
      "GET",
      documentsOf(key, `search=${encodeURIComponent('"hi" NEAR(')}`),
      200,
    );
    expect(syntax.documents.map((doc) => doc.body)).toEqual(['say "hi" NEAR(x']);
  });
});
