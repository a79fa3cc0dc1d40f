import { SvcError } from "@svc/server";
import { DEFAULT_LIMIT } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset } from "../keyset.ts";
import { type Row, toUser, USER_FIELDS } from "../records.ts";
import { activitySelect, USER_ACTIVITY_TABLE } from "../user-activity.ts";
import { type FilterQuery, type Sql, type UserFilters, userFilters } from "./list-filters.ts";
import { listIndexes } from "./list-indexes.ts";

/** Sort names of `GET users` → user fields. */
const SORTS = { created: "createdAt", email: "email", name: "name" } as const;

/** Sort names of `GET users` → columns of svc's activity table (see `user-activity.ts`). */
const ACTIVITY_SORTS = { lastSignIn: "lastSignInAt", lastActive: "lastActiveAt" } as const;

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
export async function listUsers(call: AdminCall<"listUsers">): Promise<AdminAnswer<"listUsers">> {
  const { environment } = call.ctx;
  const { names, db } = environment;
  const query = call.query;
  const sort = query.sort ?? "created";
  const byActivity = sort === "lastSignIn" || sort === "lastActive";
  if (byActivity && !environment.userActivity) {
    throw new SvcError(
      "VALIDATION_FAILED",
      `Invalid request: query.sort: ${sort} needs svc's user activity table (run the auth migrations).`,
      { issues: [{ path: "query.sort", message: "needs the user activity table" }] },
    );
  }
  const order = query.order ?? (sort === "email" || sort === "name" ? "asc" : "desc");
  const limit = query.limit ?? DEFAULT_LIMIT;
  const keyset = new Keyset(
    byActivity
      ? {
          kind: `users:${sort}:${order}`,
          column: `a."${ACTIVITY_SORTS[sort]}"`,
          id: `a."userId"`,
          direction: order,
        }
      : {
          kind: `users:${sort}:${order}`,
          column: names.column("user", SORTS[sort], "u"),
          id: names.column("user", "id", "u"),
          direction: order,
          unique: sort === "email",
        },
    query.cursor,
  );
  let rows: Row[];
  let total: number;
  if (!isFiltered(query)) {
    const [pageRows, counted] = await db.batch<Row>([
      pageStatement(
        environment,
        keyset,
        { conditions: [], sortMatches: false },
        limit + 1,
        "",
        byActivity,
      ),
      countStatement(environment, []),
    ]);
    rows = pageRows?.results ?? [];
    total = Number(counted?.results[0]?.total ?? 0);
  } else {
    const selection = await selectUsers(environment, query);
    total = selection.total;
    rows =
      total === 0
        ? []
        : (
            await pageStatement(
              environment,
              keyset,
              selection,
              limit + 1,
              "",
              byActivity,
            ).all<Row>()
          ).results;
  }
  const { rows: users, nextCursor } = keyset.cut(rows, limit);
  const now = Date.now();
  return {
    users: users.map((row) => toUser(row, now)),
    total,
    nextCursor,
  };
}

/** The filters of a users query, and how its pages are read (see {@link selectUsers}). */
export interface UserSelection {
  /** Conditions of every page, in the form the plan needs. */
  conditions: Sql[];
  /** Fetch the matches through their indexes and sort them (few), rather than walking the sort index (many). */
  sortMatches: boolean;
}

/** True when the query filters the users at all. */
export function isFiltered(query: FilterQuery): boolean {
  return query.search !== undefined || query.role !== undefined || query.banned !== undefined;
}

/**
 * Counts the users a filtered query matches and picks how its pages are
 * read: up to {@link SORT_MATCHES_UP_TO} matches are fetched through their
 * indexes and sorted; more are found by walking the sort index. `GET users`
 * and the export share it, so both answer the same users.
 *
 * @example
 * ```ts
 * const selection = await selectUsers(environment, { role: "admin" });
 * const rows = await pageStatement(environment, keyset, selection, 26).all();
 * ```
 */
export async function selectUsers(
  environment: AdminEnvironment,
  query: FilterQuery,
): Promise<UserSelection & { total: number }> {
  const filters = await userFilters(environment, query, await listIndexes(environment.db));
  const total = await countMatches(environment, filters);
  const sortMatches = total <= SORT_MATCHES_UP_TO;
  const conditions = [
    ...[...(filters.search === null ? [] : [filters.search]), ...filters.required].map((filter) =>
      sortMatches ? filter.seek : filter.check,
    ),
    ...(filters.excluded === null ? [] : [negate(filters.excluded.check)]),
  ];
  return { total, conditions, sortMatches };
}

/**
 * One page of users after the keyset's cursor: the admin fields with their
 * activity times, the sort key, and any `extra` select items (the export's
 * password hash). With `byActivity` the keyset sorts on svc's activity table
 * (alias `a`): walking its index, each user is joined by id (`CROSS JOIN`
 * keeps SQLite from starting at the user table); fetching few matches, the
 * matches are found first and their activity row joined.
 *
 * @example
 * ```ts
 * const page = await pageStatement(environment, keyset, selection, limit + 1).all<Row>();
 * ```
 */
export function pageStatement(
  environment: AdminEnvironment,
  keyset: Keyset,
  selection: UserSelection,
  limit: number,
  extra = "",
  byActivity = false,
): D1PreparedStatement {
  const { names, db } = environment;
  const after = keyset.where(selection.sortMatches).map((sql) => ({ sql, binds: keyset.binds() }));
  const all = [...selection.conditions, ...after];
  const user = `${names.table("user")} u`;
  const userId = names.column("user", "id", "u");
  const activity = `"${USER_ACTIVITY_TABLE}" a`;
  const from = !byActivity
    ? user
    : selection.sortMatches
      ? `${user} JOIN ${activity} ON a."userId" = ${userId}`
      : `${activity} CROSS JOIN ${user} ON ${userId} = a."userId"`;
  const times = byActivity
    ? `a."lastSignInAt" AS "lastSignInAt", a."lastActiveAt" AS "lastActiveAt"`
    : activitySelect(environment.userActivity, userId);
  return db
    .prepare(
      `SELECT ${names.select("user", USER_FIELDS, "u")}, ${times}, ${keyset.sortSelect()}${extra} ` +
        `FROM ${from}${where(all)} ORDER BY ${keyset.orderBy(selection.sortMatches)} LIMIT ?`,
    )
    .bind(...all.flatMap((condition) => condition.binds), limit);
}

function countStatement(environment: AdminEnvironment, conditions: Sql[]): D1PreparedStatement {
  const { names, db } = environment;
  return db
    .prepare(`SELECT COUNT(*) AS total FROM ${names.table("user")} u${where(conditions)}`)
    .bind(...conditions.flatMap((condition) => condition.binds));
}

function where(conditions: Sql[]): string {
  return conditions.length === 0
    ? ""
    : ` WHERE ${conditions.map((condition) => condition.sql).join(" AND ")}`;
}

/**
 * The number of users the filters match, each part counted the cheapest way:
 * a search alone from the search index's own count; otherwise a `COUNT(*)`
 * through the filters' indexes (one per combination of their disjoint parts,
 * added up), with a search that finds many users tested row by row rather
 * than joined from the index; `banned=false` as the count without it minus
 * the count of banned ones.
 */
async function countMatches(environment: AdminEnvironment, filters: UserFilters): Promise<number> {
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
  const count = (conditions: Sql[]) => countStatement(environment, conditions);
  const statements = combinations.map(count);
  if (excluded !== null) {
    statements.push(...combinations.map((conditions) => count([...conditions, excluded.seek])));
  }
  const totals = (await environment.db.batch<{ total: number }>(statements)).map((answer) =>
    Number(answer.results[0]?.total ?? 0),
  );
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return sum(totals.slice(0, combinations.length)) - sum(totals.slice(combinations.length));
}

function negate(condition: Sql): Sql {
  return { sql: `NOT ${condition.sql}`, binds: condition.binds };
}
