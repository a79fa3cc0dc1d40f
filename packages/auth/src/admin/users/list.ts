import { json } from "../http.ts";
import { Keyset } from "../keyset.ts";
import { booleanParser, DEFAULT_LIMIT, limitParser, oneOf, parseQuery, text } from "../query.ts";
import { type Row, toUser, USER_FIELDS } from "../records.ts";
import type { AdminCall } from "../router.ts";
import { type Sql, type UserFilters, userFilters } from "./list-filters.ts";
import { listIndexes } from "./list-indexes.ts";

/** Sort names of `GET users` → user fields. */
const SORTS = { created: "createdAt", email: "email", name: "name" } as const;

const QUERY = {
  search: text(200),
  role: text(100),
  banned: booleanParser,
  sort: oneOf(["created", "email", "name"] as const),
  order: oneOf(["asc", "desc"] as const),
  limit: limitParser,
  cursor: text(2000),
};

/**
 * Most matches the users list sorts itself: up to this many it finds the
 * matching users through their filter's index and sorts them (a few ms);
 * beyond it, it walks the sort order's index and tests each user, which stops
 * at a full page after about `limit × users ÷ matches` users.
 */
const SORT_MATCHES_UP_TO = 5_000;

/**
 * `GET users`: one page of users, the total matching the filters, and the
 * next page's cursor. Every page is a keyset range (page 4,000 of 100,000
 * users costs what page 1 does). Unfiltered: page + count over a covering
 * index in one D1 batch. Filtered: the total is counted first from the
 * filters' indexes (search: the FTS5 trigram index; role, banned: B-tree
 * indexes of svc's admin schema), and it picks the page's plan: up to
 * {@link SORT_MATCHES_UP_TO} matches are fetched through those indexes and
 * sorted, more are found by walking the sort index. `banned=false` counts
 * as all minus banned. A search (case-insensitive *contains* on email, name,
 * username and id) of one or two characters cannot use trigrams and scans.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users?search=ann&sort=email&order=asc&limit=50
 * ```
 */
export async function listUsers(call: AdminCall): Promise<Response> {
  const { environment } = call;
  const { names, db } = environment;
  const query = parseQuery(call.url, QUERY);
  const sort = query.sort ?? "created";
  const order = query.order ?? (sort === "created" ? "desc" : "asc");
  const limit = query.limit ?? DEFAULT_LIMIT;
  const keyset = new Keyset(
    {
      kind: `users:${sort}:${order}`,
      column: names.column("user", SORTS[sort], "u"),
      id: names.column("user", "id", "u"),
      direction: order,
      unique: sort === "email",
    },
    query.cursor,
  );
  const filtered =
    query.search !== undefined || query.role !== undefined || query.banned !== undefined;
  const filters = filtered
    ? await userFilters(environment, query, await listIndexes(db))
    : { search: null, required: [], excluded: null };
  const from = `FROM ${names.table("user")} u`;
  const where = (conditions: Sql[]) =>
    conditions.length === 0
      ? ""
      : ` WHERE ${conditions.map((condition) => condition.sql).join(" AND ")}`;
  const binds = (conditions: Sql[]) => conditions.flatMap((condition) => condition.binds);
  const page = (conditions: Sql[], sortMatches: boolean) => {
    const after = keyset.where(sortMatches).map((sql) => ({ sql, binds: keyset.binds() }));
    const all = [...conditions, ...after];
    return db
      .prepare(
        `SELECT ${names.select("user", USER_FIELDS, "u")}, ${keyset.sortSelect()} ${from}${where(all)} ` +
          `ORDER BY ${keyset.orderBy(sortMatches)} LIMIT ?`,
      )
      .bind(...binds(all), limit + 1);
  };
  const count = (conditions: Sql[]) =>
    db.prepare(`SELECT COUNT(*) AS total ${from}${where(conditions)}`).bind(...binds(conditions));

  let rows: Row[];
  let total: number;
  if (!filtered) {
    const [pageRows, counted] = await db.batch<Row>([page([], false), count([])]);
    rows = pageRows?.results ?? [];
    total = Number(counted?.results[0]?.total ?? 0);
  } else {
    total = await countMatches(db, filters, count);
    // Few matches: find them through their indexes, then sort; many: walk the sort index.
    const few = total <= SORT_MATCHES_UP_TO;
    const conditions = [
      ...[...(filters.search === null ? [] : [filters.search]), ...filters.required].map(
        (filter) => (few ? filter.seek : filter.check),
      ),
      ...(filters.excluded === null ? [] : [negate(filters.excluded.check)]),
    ];
    rows = total === 0 ? [] : (await page(conditions, few).all<Row>()).results;
  }
  const { rows: users, nextCursor } = keyset.cut(rows, limit);
  const now = Date.now();
  return json({
    users: users.map((row) => toUser(row, now)),
    total,
    nextCursor,
  });
}

/**
 * The number of users the filters match, each part counted the cheapest way:
 * a search alone from the search index's own count; otherwise a `COUNT(*)`
 * through the filters' indexes (one per combination of their disjoint parts,
 * added up), with a search that finds many users tested row by row rather
 * than joined from the index; `banned=false` as the count without it minus
 * the count of banned ones.
 */
async function countMatches(
  db: D1Database,
  filters: UserFilters,
  count: (conditions: Sql[]) => D1PreparedStatement,
): Promise<number> {
  const { search, required, excluded } = filters;
  if (search?.count != null && required.length === 0 && excluded === null) return search.count;
  const searchCondition =
    search === null ? [] : [(search.count ?? 0) <= SORT_MATCHES_UP_TO ? search.seek : search.check];
  // Each combination of the filters' disjoint parts is counted on its own, then added up.
  let combinations: Sql[][] = [searchCondition];
  for (const filter of required) {
    const parts = filter.seekParts ?? [filter.seek];
    combinations = combinations.flatMap((conditions) => parts.map((part) => [...conditions, part]));
  }
  const statements = combinations.map((conditions) => count(conditions));
  if (excluded !== null) {
    statements.push(...combinations.map((conditions) => count([...conditions, excluded.seek])));
  }
  const totals = (await db.batch<{ total: number }>(statements)).map((answer) =>
    Number(answer.results[0]?.total ?? 0),
  );
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return sum(totals.slice(0, combinations.length)) - sum(totals.slice(combinations.length));
}

function negate(condition: Sql): Sql {
  return { sql: `NOT ${condition.sql}`, binds: condition.binds };
}
