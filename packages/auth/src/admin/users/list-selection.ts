import type { AdminEnvironment } from "../environment.ts";
import {
  type FilterQuery,
  type Sql,
  type UserFilter,
  type UserFilters,
  userFilters,
} from "./list-filters.ts";
import { listIndexes } from "./list-indexes.ts";
import { searchMatches } from "./search-matches.ts";

/**
 * Most search matches fetched through the search index and sorted: up to
 * this many, the page is read from their row ids; beyond it, the sort
 * order's index is walked and each user tested, which stops at a full page.
 */
const SORT_MATCHES_UP_TO = 5_000;

/**
 * Most users of one filter's index walked to count or fetch its matches
 * exactly (role and ban filters, whose sizes svc's counters know): a few
 * milliseconds of index and row reads at any table size.
 */
const DRIVE_UP_TO = 20_000;

/** How many rows a count that must test users one by one may read, per exact total promised. */
const SCAN_ROWS_PER_TOTAL = 2;

/** The filters of a users query, and how its pages are read (see {@link selectUsers}). */
export interface UserSelection {
  /** Conditions of every page, in the form the plan needs. */
  conditions: Sql[];
  /** Fetch the matches through an index and sort them (few), rather than walking the sort index (many). */
  sortMatches: boolean;
}

/** A selection with the users it matches: `total`, exact when `totalIsExact`, else a lower bound. */
export interface CountedSelection extends UserSelection {
  total: number;
  totalIsExact: boolean;
}

/** True when the query filters the users at all. */
export function isFiltered(query: FilterQuery): boolean {
  return query.search !== undefined || query.role !== undefined || query.banned !== undefined;
}

/**
 * Picks how a filtered query's pages are read and counts what it matches,
 * exactly whenever that is cheap, else up to the admin's `totals.exactUpTo`
 * (default 10,000) and reported as a lower bound. A search of three or more
 * characters is first counted in the search index, once, as far as any use
 * needs (its row ids listed when there are at most {@link SORT_MATCHES_UP_TO}).
 * Then, in order:
 *
 * 1. A role or ban filter whose size svc's counters know and that is small
 *    ({@link DRIVE_UP_TO}) drives, unless the search found fewer users: its
 *    index is walked, the other filters tested per row (a search counted in
 *    full by its index matches, otherwise by `LIKE`). Exact.
 * 2. A search finding few users drives: the page reads their row ids. Exact.
 * 3. Otherwise the page walks the sort order's index and tests each user,
 *    stopping at a full page; the total is exact when counters answer it (a
 *    role alone, `banned=true` or `false`, a role without a small ban set),
 *    else counted up to the bound: a search alone from the search index, any
 *    other mix by testing at most `SCAN_ROWS_PER_TOTAL × exactUpTo` users.
 *
 * `GET users` and the export share it, so both answer the same users.
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
  limit = 25,
): Promise<CountedSelection> {
  const filters = await userFilters(environment, query, await listIndexes(environment));
  const { search, required, excluded } = filters;
  const notExcluded = excluded === null ? [] : [negate(excluded.check)];
  // One pass over the search index counts the matches as far as any use needs and, when they
  // are few, lists their row ids: a search costs one index read, narrow or broad.
  const exactUpTo = environment.totals.exactUpTo;
  const searchUpTo = Math.max(SORT_MATCHES_UP_TO, exactUpTo) + 1;
  const matches =
    search?.match == null
      ? null
      : await searchMatches(
          environment,
          { ...search, match: search.match },
          searchUpTo,
          required.length === 0 && excluded === null,
        );
  // A search counted in full is tested against its matches' row ids, not by LIKE on every row
  // (and, when those are the index's candidates, by the row test on those rows alone).
  const verify = matches?.verify ?? null;
  const ids: Sql | null =
    matches?.ids == null
      ? null
      : {
          sql:
            verify === null
              ? "u.rowid IN (SELECT value FROM json_each(?))"
              : `(u.rowid IN (SELECT value FROM json_each(?)) AND ${verify.sql})`,
          binds: [matches.ids, ...(verify?.binds ?? [])],
        };
  const searchTest = search === null ? [] : [ids ?? search.check];
  const tested = (others: UserFilter[]) => [
    ...searchTest,
    ...others.map((filter) => filter.check),
    ...notExcluded,
  ];
  const sized = required
    .filter((filter) => filter.size !== undefined)
    .sort((a, b) => (a.size ?? 0) - (b.size ?? 0));
  const driver = sized[0];
  const found = ids === null ? Number.POSITIVE_INFINITY : (matches?.count ?? 0);
  const byIds = found <= SORT_MATCHES_UP_TO && (driver?.size === undefined || found <= driver.size);
  if (!byIds && driver?.size !== undefined && driver.size <= DRIVE_UP_TO) {
    const rest = tested(required.filter((filter) => filter !== driver));
    const conditions = [driver.seek, ...rest];
    const total = rest.length === 0 ? driver.size : await count(environment, conditions);
    // Fetch and sort the driver's users, or walk the sort index: whichever reads fewer rows.
    const walked = ((filters.users ?? driver.size) / Math.max(total, 1)) * (limit + 1);
    const sortMatches = driver.size <= walked;
    return {
      conditions: sortMatches ? conditions : tested(required),
      sortMatches,
      total,
      totalIsExact: true,
    };
  }
  if (ids !== null) {
    // Counted in full (at most `exactUpTo` + 1 row ids): exact, by probing those rows alone.
    const rest = [...required.map((filter) => filter.check), ...notExcluded];
    const conditions = [ids, ...rest];
    const total =
      rest.length === 0 && verify === null ? found : await count(environment, conditions);
    return { conditions, sortMatches: byIds, total, totalIsExact: true };
  }
  const conditions = tested(required);
  return {
    conditions,
    sortMatches: false,
    ...(await broadTotal(environment, filters, conditions, matches?.count ?? null)),
  };
}

/** The total of a query no small index serves (plan 3 of {@link selectUsers}). */
async function broadTotal(
  environment: AdminEnvironment,
  filters: UserFilters,
  conditions: Sql[],
  searchCount: number | null,
): Promise<{ total: number; totalIsExact: boolean }> {
  const { search, required, excluded, users } = filters;
  const exactUpTo = environment.totals.exactUpTo;
  if (users === undefined) {
    // A database without the counters (migrated before them): counted exactly, through the indexes.
    const seeks = [
      ...(search === null ? [] : [search.seek]),
      ...required.map((filter) => filter.seek),
      ...(excluded === null ? [] : [negate(excluded.check)]),
    ];
    return { total: await count(environment, seeks), totalIsExact: true };
  }
  const [only] = required;
  if (search === null && required.length <= 1 && (only === undefined || only.size !== undefined)) {
    const base = only?.size ?? users;
    if (excluded === null) return { total: base, totalIsExact: true };
    if (excluded.size !== undefined && only === undefined)
      return { total: users - excluded.size, totalIsExact: true };
    if (excluded.size !== undefined && only !== undefined && excluded.size <= DRIVE_UP_TO) {
      const both = await count(environment, [excluded.seek, only.check]);
      return { total: base - both, totalIsExact: true };
    }
  }
  if (searchCount !== null && required.length === 0 && excluded === null) {
    return { total: Math.min(searchCount, exactUpTo), totalIsExact: searchCount <= exactUpTo };
  }
  const budget = SCAN_ROWS_PER_TOTAL * exactUpTo;
  const found = await countScanning(environment, conditions, budget, exactUpTo + 1);
  return { total: Math.min(found, exactUpTo), totalIsExact: found <= exactUpTo && users <= budget };
}

/** `COUNT(*)` of the users meeting every condition. */
async function count(environment: AdminEnvironment, conditions: Sql[]): Promise<number> {
  const { names, db } = environment;
  const counted = await db
    .prepare(`SELECT COUNT(*) AS total FROM ${names.table("user")} u${where(conditions)}`)
    .bind(...conditions.flatMap((condition) => condition.binds))
    .first<{ total: number }>();
  return Number(counted?.total ?? 0);
}

/** Users meeting every condition among the first `rows` users of the table, counted no further than `upTo`. */
async function countScanning(
  environment: AdminEnvironment,
  conditions: Sql[],
  rows: number,
  upTo: number,
): Promise<number> {
  const { names, db } = environment;
  const counted = await db
    .prepare(
      `SELECT COUNT(*) AS total FROM (SELECT 1 FROM (SELECT * FROM ${names.table("user")} LIMIT ?) u` +
        `${where(conditions)} LIMIT ?)`,
    )
    .bind(rows, ...conditions.flatMap((condition) => condition.binds), upTo)
    .first<{ total: number }>();
  return Number(counted?.total ?? 0);
}

/** ` WHERE a AND b …`, or nothing. */
export function where(conditions: Sql[]): string {
  return conditions.length === 0
    ? ""
    : ` WHERE ${conditions.map((condition) => condition.sql).join(" AND ")}`;
}

function negate(condition: Sql): Sql {
  return { sql: `NOT ${condition.sql}`, binds: condition.binds };
}
