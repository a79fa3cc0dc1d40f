import type { AdminOverview } from "./contract/index.ts";
import type { AdminEnvironment } from "./environment.ts";
import { USER_ACTIVITY_TABLE } from "./user-activity.ts";
import { COUNT_KEYS, countsBetween, USER_COUNTS_TABLE } from "./user-counts.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The windows of `activeUsers`, in the answer's order. */
const WINDOWS = [DAY_MS, 7 * DAY_MS, 30 * DAY_MS] as const;

/** A moment's UTC hour as the counters key it (`2026-11-25T14`). */
const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * The overview from svc's user counters (`svc_user_counts`): a few rows
 * whatever the number of users. Totals are counter rows (bans in force: the
 * flagged bans minus those expired, an index range); sign-ups are one
 * `signup:` row per day; users active since a moment are the `active:` hours
 * after that moment's hour, plus the users of that boundary hour whose last
 * activity is on or after it (a range of the activity index): exact, to the
 * millisecond, like the query it replaces.
 *
 * @example
 * ```ts
 * const overview = await countedOverview(environment, 30, Date.now());
 * ```
 */
export async function countedOverview(
  environment: AdminEnvironment,
  days: number,
  now: number,
): Promise<AdminOverview> {
  const { names, db, capabilities } = environment;
  const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
  const firstDay = new Date(startOfToday - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const user = (field: string) => names.column("user", field);
  const withBans = capabilities.userActions && names.hasField("user", "banned");
  const boundaries = WINDOWS.map((window) => now - window);
  const statements = [
    db
      .prepare(`SELECT "key", "n" FROM "${USER_COUNTS_TABLE}" WHERE "key" IN (?, ?, ?)`)
      .bind(COUNT_KEYS.users, COUNT_KEYS.emailVerified, COUNT_KEYS.banned),
    withBans
      ? db
          .prepare(
            `SELECT COUNT(*) AS n FROM ${names.table("user")} WHERE ${user("banned")} = 1 ` +
              `AND ${user("banExpires")} IS NOT NULL AND ${user("banExpires")} <= ?`,
          )
          .bind(new Date(now).toISOString())
      : db.prepare("SELECT 0 AS n"),
    capabilities.organizations
      ? db.prepare(`SELECT COUNT(*) AS n FROM ${names.table("organization")}`)
      : db.prepare("SELECT 0 AS n"),
    countsBetween(db, COUNT_KEYS.signUps(firstDay), COUNT_KEYS.signUps("~")),
    countsBetween(db, COUNT_KEYS.active(hourOf(Math.min(...boundaries))), COUNT_KEYS.active("~")),
    ...boundaries.map((since) =>
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM "${USER_ACTIVITY_TABLE}" WHERE "lastActiveAt" >= ? AND "lastActiveAt" < ?`,
        )
        .bind(
          new Date(since).toISOString(),
          new Date((Math.floor(since / HOUR_MS) + 1) * HOUR_MS).toISOString(),
        ),
    ),
  ];
  const results = await db.batch<{ key?: string; n: number }>(statements);
  const rows = (index: number) => results[index]?.results ?? [];
  const counter = new Map(rows(0).map((row) => [row.key, Number(row.n)]));
  const single = (index: number) => Number(rows(index)[0]?.n ?? 0);
  const perDay = new Map(rows(3).map((row) => [String(row.key).slice(7), Number(row.n)]));
  const hours = rows(4).map((row) => ({ hour: String(row.key).slice(7), n: Number(row.n) }));
  const activeSince = (index: number) => {
    const boundary = hourOf(boundaries[index]!);
    const later = hours.filter((entry) => entry.hour > boundary);
    return later.reduce((sum, entry) => sum + entry.n, 0) + single(5 + index);
  };
  return {
    totals: {
      users: counter.get(COUNT_KEYS.users) ?? 0,
      emailVerified: counter.get(COUNT_KEYS.emailVerified) ?? 0,
      banned: withBans ? (counter.get(COUNT_KEYS.banned) ?? 0) - single(1) : null,
      organizations: capabilities.organizations ? single(2) : null,
    },
    signUps: Array.from({ length: days }, (_, index) => {
      const day = new Date(startOfToday - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10);
      return { day, count: perDay.get(day) ?? 0 };
    }),
    activeUsers: {
      last24Hours: activeSince(0),
      last7Days: activeSince(1),
      last30Days: activeSince(2),
    },
    generatedAt: new Date(now).toISOString(),
  };
}
