import type { AdminEnvironment } from "../environment.ts";
import { SESSION_ACTIVITY_INDEX, USER_BANNED_INDEX, USER_ROLE_INDEX } from "../schema-plugin.ts";
import { USER_SEARCH_TABLE } from "../search-index.ts";
import { USER_COUNTS_TABLE } from "../user-counts.ts";

/** Which of the admin lists' indexes the database has. */
export interface ListIndexes {
  /** The FTS5 trigram index of search (`svc_user_search`). */
  search: boolean;
  /** The role filter's index. */
  role: boolean;
  /** The banned filter's index. */
  banned: boolean;
  /** The overview's session index (`svc_session_updated_idx`). */
  activity: boolean;
  /** svc's user counters (`svc_user_counts`), which answer totals without counting rows. */
  counts: boolean;
}

/** How long an answer is reused before `sqlite_master` is read again. */
const REUSE_MS = 60_000;

const known = new WeakMap<D1Database, { indexes: ListIndexes; at: number }>();

/**
 * Which indexes the users list and the overview may plan with, read from `sqlite_master` and
 * reused for a minute per database binding. A database migrated before these
 * indexes existed (a checked-in migration not yet regenerated) still lists
 * users correctly, with scans, instead of failing on a missing table or
 * walking a missing index once per distinct role.
 *
 * @example
 * ```ts
 * const indexes = await listIndexes(environment);
 * if (indexes.search) …
 * ```
 */
export async function listIndexes(
  environment: Pick<AdminEnvironment, "db" | "binding">,
): Promise<ListIndexes> {
  const { db, binding } = environment;
  const cached = known.get(binding);
  if (cached !== undefined && Date.now() - cached.at < REUSE_MS) return cached.indexes;
  const { results } = await db
    .prepare("SELECT name FROM sqlite_master WHERE name IN (?, ?, ?, ?, ?)")
    .bind(
      USER_SEARCH_TABLE,
      USER_ROLE_INDEX,
      USER_BANNED_INDEX,
      SESSION_ACTIVITY_INDEX,
      USER_COUNTS_TABLE,
    )
    .all<{ name: string }>();
  const present = new Set(results.map((row) => row.name));
  const indexes = {
    search: present.has(USER_SEARCH_TABLE),
    role: present.has(USER_ROLE_INDEX),
    banned: present.has(USER_BANNED_INDEX),
    activity: present.has(SESSION_ACTIVITY_INDEX),
    counts: present.has(USER_COUNTS_TABLE),
  };
  known.set(binding, { indexes, at: Date.now() });
  return indexes;
}
