import { SvcError } from "@svc/server";
import { DEFAULT_LIMIT, STORED_USER_FIELDS } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset } from "../keyset.ts";
import { type Row, toUser } from "../records.ts";
import { activitySelect, USER_ACTIVITY_TABLE } from "../user-activity.ts";
import { COUNT_KEYS, USER_COUNTS_TABLE } from "../user-counts.ts";
import { listIndexes } from "./list-indexes.ts";
import { isFiltered, selectUsers, type UserSelection, where } from "./list-selection.ts";

/** Sort names of `GET users` → user fields. */
const SORTS = { created: "createdAt", email: "email", name: "name" } as const;

/** Sort names of `GET users` → columns of svc's activity table (see `user-activity.ts`). */
const ACTIVITY_SORTS = { lastSignIn: "lastSignInAt", lastActive: "lastActiveAt" } as const;

/**
 * `GET users`: one page of users, how many match the filters, and the next
 * page's cursor. Every page is a keyset range (page 4,000 of 100,000 users
 * costs what page 1 does). Unfiltered, the total is svc's `users` counter
 * (a `COUNT(*)` over a covering index on a database without the counters).
 * Filtered, {@link selectUsers} picks the page's plan and counts: exactly
 * whenever that is cheap, else up to the admin's `totals.exactUpTo` (default
 * 10,000), answered with `totalIsExact: false` and `total` as a lower bound
 * (the dashboard shows "10,000+"). A search (case-insensitive *contains* on
 * email, name, username and id) of one or two characters cannot use
 * trigrams and tests users one by one.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users?search=ann&sort=email&order=asc&limit=50
 * → { users: [...], total: 12, totalIsExact: true, nextCursor: null }
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
  let totalIsExact = true;
  if (!isFiltered(query)) {
    const counters = (await listIndexes(environment)).counts;
    const [pageRows, counted] = await db.batch<Row>([
      pageStatement(
        environment,
        keyset,
        { conditions: [], sortMatches: false },
        limit + 1,
        "",
        byActivity,
      ),
      counters
        ? db
            .prepare(`SELECT "n" AS total FROM "${USER_COUNTS_TABLE}" WHERE "key" = ?`)
            .bind(COUNT_KEYS.users)
        : db.prepare(`SELECT COUNT(*) AS total FROM ${names.table("user")}`),
    ]);
    rows = pageRows?.results ?? [];
    total = Number(counted?.results[0]?.total ?? 0);
  } else {
    const selection = await selectUsers(environment, query, limit);
    total = selection.total;
    totalIsExact = selection.totalIsExact;
    rows =
      total === 0 && totalIsExact
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
    // A lower bound never says fewer than this page shows (and one more when another page follows).
    total: totalIsExact ? total : Math.max(total, users.length + (nextCursor === null ? 0 : 1)),
    totalIsExact,
    nextCursor,
  };
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
      `SELECT ${names.select("user", STORED_USER_FIELDS, "u")}, ${times}, ${keyset.sortSelect()}${extra} ` +
        `FROM ${from}${where(all)} ORDER BY ${keyset.orderBy(selection.sortMatches)} LIMIT ?`,
    )
    .bind(...all.flatMap((condition) => condition.binds), limit);
}
