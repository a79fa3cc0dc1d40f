import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { json } from "../http.ts";
import { Keyset } from "../keyset.ts";
import { booleanParser, DEFAULT_LIMIT, limitParser, oneOf, parseQuery, text } from "../query.ts";
import { type Row, toUser, USER_FIELDS } from "../records.ts";
import type { AdminCall } from "../router.ts";
import { contains, roleMatch, rolePattern } from "../search.ts";

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
 * `GET users`: one page of users, the total matching the filters, and the
 * next page's cursor. Unfiltered: two statements in one D1 batch (page +
 * count over a covering index), one round trip; the page is a keyset range
 * over an index (`sort=created` / `name`: svc's indexes; `email`:
 * better-auth's unique one), so page 4,000 of 100,000 users costs what page 1
 * does. `search` (case-insensitive contains on email, name and username;
 * exact on id) and the role / banned filters scan the table; a search's
 * first page is one statement with a window count, one scan for page and
 * total.
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
  const filters = userFilters(environment, query);
  const from = `FROM ${names.table("user")} u`;
  const where = (conditions: string[]) =>
    conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  const select = `SELECT ${names.select("user", USER_FIELDS, "u")}, ${keyset.sortSelect()}`;
  const orderBy = (scan: boolean) => ` ORDER BY ${keyset.orderBy(scan)} LIMIT ?`;
  const conditions = [...filters.sql, ...keyset.where()];
  let rows: Row[];
  let total: number;
  if (query.search !== undefined && query.cursor === undefined) {
    // First page of a search: the search scans the table anyway, so one scan
    // answers both the page and the total (a window count), not two. (Role
    // and banned filters keep two statements: their page walks the sort
    // index and stops early, which beats sorting every match.)
    const page = await db
      .prepare(
        `${select}, COUNT(*) OVER () AS "svcTotal" ${from}${where(conditions)}${orderBy(true)}`,
      )
      .bind(...filters.binds, limit + 1)
      .all<Row>();
    rows = page.results;
    total = Number(rows[0]?.svcTotal ?? 0);
  } else {
    const page = db
      .prepare(`${select} ${from}${where(conditions)}${orderBy(query.search !== undefined)}`)
      .bind(...filters.binds, ...keyset.binds(), limit + 1);
    const count = db
      .prepare(`SELECT COUNT(*) AS total ${from}${where(filters.sql)}`)
      .bind(...filters.binds);
    const [pageRows, counted] = await db.batch<Row>([page, count]);
    rows = pageRows?.results ?? [];
    total = Number(counted?.results[0]?.total ?? 0);
  }
  const { rows: users, nextCursor } = keyset.cut(rows, limit);
  const now = Date.now();
  return json({
    users: users.map((row) => toUser(row, now)),
    total,
    nextCursor,
  });
}

function userFilters(
  environment: AdminEnvironment,
  query: { search?: string | undefined; role?: string | undefined; banned?: boolean | undefined },
): { sql: string[]; binds: unknown[] } {
  const { names, roles, capabilities } = environment;
  const sql: string[] = [];
  const binds: unknown[] = [];
  if (query.search !== undefined) {
    const term = query.search;
    const fields = ["email", "name", ...(capabilities.username ? ["username"] : [])];
    const matches = fields.map((field) => contains(names.column("user", field, "u"), term));
    sql.push(
      `(${matches.map((match) => match.sql).join(" OR ")} OR ${names.column("user", "id", "u")} = ?)`,
    );
    binds.push(...matches.map((match) => match.bind), term);
  }
  if (query.role !== undefined || query.banned !== undefined) {
    if (roles === null || !names.hasField("user", "role")) {
      throw new SvcError(
        "VALIDATION_FAILED",
        "Invalid request: query.role / query.banned need the admin plugin.",
        { issues: [{ path: "query", message: "role and banned filters need the admin plugin" }] },
      );
    }
  }
  if (query.role !== undefined && roles !== null) {
    const role = names.column("user", "role", "u");
    // A user without a role has the default one, as better-auth's admin plugin reads it.
    const empty = query.role === roles.defaultRole ? `${role} IS NULL OR ${role} = '' OR ` : "";
    sql.push(`(${empty}${roleMatch(role)})`);
    binds.push(rolePattern(query.role));
  }
  if (query.banned !== undefined) {
    const inForce =
      `(COALESCE(${names.column("user", "banned", "u")}, 0) = 1 AND ` +
      `(${names.column("user", "banExpires", "u")} IS NULL OR ${names.column("user", "banExpires", "u")} > ?))`;
    sql.push(query.banned ? inForce : `NOT ${inForce}`);
    binds.push(new Date().toISOString());
  }
  return { sql, binds };
}
