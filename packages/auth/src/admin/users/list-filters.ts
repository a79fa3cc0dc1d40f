import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { contains, foldsFully, roleMatch, rolePattern } from "../search.ts";
import { searchIndexMatch, USER_SEARCH_TABLE } from "../search-index.ts";
import { COUNT_KEYS, countsBetween, USER_COUNTS_TABLE } from "../user-counts.ts";
import type { ListIndexes } from "./list-indexes.ts";

/** A SQL condition on the user table (alias `u`) and its bound values. */
export interface Sql {
  sql: string;
  binds: unknown[];
}

/**
 * One filter of `GET users`, in the two forms a plan picks from:
 * - `seek`: written so an index serves it (the search index, the role or
 *   banned index): the plan when few users match, which finds them, then
 *   sorts them.
 * - `check`: the same set tested row by row, usable by no index: the plan
 *   when many users match, which walks the sort order's index and stops at a
 *   full page.
 * Without the index a filter needs, both forms are the row-by-row test.
 */
export interface UserFilter {
  seek: Sql;
  check: Sql;
  /**
   * `seek` split into disjoint conditions, each served by an index on its
   * own, for counting: SQLite answers `a OR b` over one index by collecting
   * row ids to drop duplicates, twice the cost of counting `a` and `b`
   * apart and adding (990,000 users: 34 vs 18 ms).
   */
  seekParts?: Sql[];
  /** Exactly how many users match this filter alone, when svc's counters tell it without counting. */
  size?: number;
}

/**
 * A search's filter. `match` is its search-index operand (`null` when the
 * term is too short for trigrams or the index is missing: then it scans).
 */
export interface SearchFilter extends UserFilter {
  match: string | null;
  /** The term as typed. */
  term: string;
  /** The per-row test of the whole term, when it folds every letter of it (`foldsFully`); else `null`. */
  rowTest: Sql | null;
}

/** The filters of one `GET users` request. */
export interface UserFilters {
  search: SearchFilter | null;
  /** The other filters every listed user must pass (role, `banned=true`). */
  required: UserFilter[];
  /** `banned=false`: users outside this filter (counted as all minus banned). */
  excluded: UserFilter | null;
  /** How many users there are, from svc's counters; `undefined` without them. */
  users?: number;
}

/** Query values the filters read. */
export interface FilterQuery {
  search?: string | undefined;
  role?: string | undefined;
  banned?: boolean | undefined;
}

/**
 * Builds the filters of a `GET users` request. A search is a case-insensitive
 * (ASCII) *contains* on email, name, username and id; served by the FTS5
 * trigram index from three characters on (counted by the list, which knows
 * how far to count), scanned for below. The role filter matches better-auth's
 * comma-separated role strings: the distinct role values are read first
 * (from svc's counters, or a skip scan of the role index), so the filter
 * becomes `role IN (…)`, which the index serves. With the counters each role
 * and ban filter also knows its exact size (`size`).
 *
 * @throws {SvcError} `VALIDATION_FAILED` for `role` / `banned` without the admin plugin
 * @example
 * ```ts
 * const filters = await userFilters(environment, { search: "ann" }, indexes);
 * ```
 */
export async function userFilters(
  environment: AdminEnvironment,
  query: FilterQuery,
  indexes: ListIndexes,
): Promise<UserFilters> {
  const counted = indexes.counts ? await readCounters(environment) : null;
  const filters: UserFilters = {
    search: query.search === undefined ? null : searchFilter(environment, query.search, indexes),
    required: [],
    excluded: null,
    ...(counted ? { users: counted.users } : {}),
  };
  if (query.role !== undefined || query.banned !== undefined) {
    if (environment.roles === null || !environment.names.hasField("user", "role")) {
      throw new SvcError(
        "VALIDATION_FAILED",
        "Invalid request: query.role / query.banned need the admin plugin.",
        { issues: [{ path: "query", message: "role and banned filters need the admin plugin" }] },
      );
    }
  }
  if (query.role !== undefined) {
    filters.required.push(await roleFilter(environment, query.role, indexes, counted?.roles));
  }
  if (query.banned !== undefined) {
    const banned = bannedFilter(environment, indexes, counted?.banned);
    if (query.banned) filters.required.push(banned);
    else filters.excluded = banned;
  }
  return filters;
}

/** What svc's counters say for the filters: users, each role string's users, bans in force. */
interface Counted {
  users: number;
  roles: Map<string, number>;
  banned: number;
}

/** Reads the counters the filters size themselves with: one D1 batch of primary-key ranges. */
async function readCounters(environment: AdminEnvironment): Promise<Counted> {
  const { db, names } = environment;
  const hasBans = names.hasField("user", "banned");
  const [totals, roles, expired] = await db.batch<{ key?: string; n: number }>([
    db
      .prepare(`SELECT "key", "n" FROM "${USER_COUNTS_TABLE}" WHERE "key" IN (?, ?)`)
      .bind(COUNT_KEYS.users, COUNT_KEYS.banned),
    countsBetween(db, COUNT_KEYS.role(""), "role;"),
    hasBans
      ? db
          .prepare(
            `SELECT COUNT(*) AS n FROM ${names.table("user")} WHERE ${names.column("user", "banned")} = 1 ` +
              `AND ${names.column("user", "banExpires")} IS NOT NULL AND ${names.column("user", "banExpires")} <= ?`,
          )
          .bind(new Date().toISOString())
      : db.prepare("SELECT 0 AS n"),
  ]);
  const counter = new Map((totals?.results ?? []).map((row) => [row.key, Number(row.n)]));
  return {
    users: counter.get(COUNT_KEYS.users) ?? 0,
    roles: new Map(
      (roles?.results ?? [])
        .filter((row) => Number(row.n) > 0)
        .map((row) => [String(row.key).slice(COUNT_KEYS.role("").length), Number(row.n)]),
    ),
    banned: (counter.get(COUNT_KEYS.banned) ?? 0) - Number(expired?.results[0]?.n ?? 0),
  };
}

function searchFilter(
  environment: AdminEnvironment,
  term: string,
  indexes: ListIndexes,
): SearchFilter {
  const { names, capabilities } = environment;
  const fields = ["email", "name", ...(capabilities.username ? ["username"] : []), "id"];
  const matches = fields.map((field) => contains(names.column("user", field, "u"), term));
  const rowTest: Sql = {
    sql: `(${matches.map((match) => match.sql).join(" OR ")})`,
    binds: matches.flatMap((match) => match.binds),
  };
  const match = indexes.search ? searchIndexMatch(term) : null;
  const folds = foldsFully(term);
  if (match === null) {
    return { seek: rowTest, check: rowTest, match: null, term, rowTest: folds ? rowTest : null };
  }
  const index = `"${USER_SEARCH_TABLE}"`;
  const seek = {
    sql: `u.rowid IN (SELECT rowid FROM ${index} WHERE ${index} MATCH ?)`,
    binds: [match],
  };
  // A term with many letters outside ASCII has too many case spellings to test per row: the
  // index, which folds them all, answers the test too.
  return { seek, check: folds ? rowTest : seek, match, term, rowTest: folds ? rowTest : null };
}

/** Most distinct role strings read for a role filter; beyond it the filter scans. */
const ROLE_VALUES_LIMIT = 500;

async function roleFilter(
  environment: AdminEnvironment,
  role: string,
  indexes: ListIndexes,
  counted: Map<string, number> | undefined,
): Promise<UserFilter> {
  const { names, roles, db } = environment;
  const column = names.column("user", "role", "u");
  // A user without a role has the default one, as better-auth's admin plugin reads it.
  const isDefault = role === roles?.defaultRole;
  const check: Sql = {
    sql: `(${isDefault ? `${column} IS NULL OR ${column} = '' OR ` : ""}${roleMatch(column)})`,
    binds: [rolePattern(role)],
  };
  if (!indexes.role) return { seek: check, check };
  const bare = names.column("user", "role");
  const table = names.table("user");
  // The counters list every role string with its users; without them, a skip scan of the role
  // index (each step seeks the next larger value).
  const distinct =
    counted === undefined
      ? (
          await db
            .prepare(
              `WITH RECURSIVE roles(value) AS (SELECT MIN(${bare}) FROM ${table} UNION ALL ` +
                `SELECT (SELECT MIN(${bare}) FROM ${table} WHERE ${bare} > roles.value) FROM roles ` +
                `WHERE roles.value IS NOT NULL) SELECT value FROM roles WHERE value IS NOT NULL LIMIT ?`,
            )
            .bind(ROLE_VALUES_LIMIT + 1)
            .all<{ value: string }>()
        ).results.map((row) => row.value)
      : [...counted.keys()];
  if (distinct.length > ROLE_VALUES_LIMIT) return { seek: check, check };
  const pattern = rolePattern(role);
  const values = distinct.filter(
    (value) => `,${value.replaceAll(" ", "")},`.includes(pattern) || (isDefault && value === ""),
  );
  const alternatives = [
    ...(values.length > 0 ? [`${column} IN (${values.map(() => "?").join(", ")})`] : []),
    ...(isDefault ? [`${column} IS NULL`] : []),
  ];
  return {
    seek: {
      sql: alternatives.length === 0 ? "0" : `(${alternatives.join(" OR ")})`,
      binds: values,
    },
    check,
    // The counters key no role and '' alike ("role:"), which the default role's values hold.
    ...(counted === undefined
      ? {}
      : { size: values.reduce((sum, value) => sum + (counted.get(value) ?? 0), 0) }),
  };
}

function bannedFilter(
  environment: AdminEnvironment,
  indexes: ListIndexes,
  size: number | undefined,
): UserFilter {
  const { names } = environment;
  const banned = names.column("user", "banned", "u");
  const expires = names.column("user", "banExpires", "u");
  const now = new Date().toISOString();
  const notExpired = `(${expires} IS NULL OR ${expires} > ?)`;
  const check: Sql = { sql: `(COALESCE(${banned}, 0) = 1 AND ${notExpired})`, binds: [now] };
  const sized = size === undefined ? {} : { size };
  if (!indexes.banned) return { seek: check, check, ...sized };
  return { seek: { sql: `(${banned} = 1 AND ${notExpired})`, binds: [now] }, check, ...sized };
}
