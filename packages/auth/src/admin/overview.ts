import type { AdminOverview } from "./contract/index.ts";
import type { AdminAnswer, AdminCall } from "./handler.ts";
import { countedOverview } from "./overview-counted.ts";
import { SESSION_ACTIVITY_INDEX } from "./schema-plugin.ts";
import { listIndexes } from "./users/list-indexes.ts";

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

/**
 * `GET overview[?days=30]`: the dashboard's Overview screen. Totals (users,
 * verified, banned, organizations), sign-ups per UTC day over the last `days`
 * (1–90, zero days included) and active users in the last 24 hours, 7 and
 * 30 days: one D1 batch.
 *
 * With svc's user counters (`svc_user_counts`, see `countedOverview`) it reads
 * a few counter rows whatever the number of users; "active" is then the
 * user's last activity (`svc_user_activity.lastActiveAt`: their last sign-in
 * or session refresh, impersonations excluded). A database without the
 * counters (migrated before them) is counted from indexes (`user.createdAt`,
 * `user(banned, banExpires)`, `session(updatedAt, userId)`), never a scan of
 * the user table's rows, with "active" from live sessions' `updatedAt`.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/overview?days=7
 * → { totals: { users, emailVerified, banned, organizations }, signUps: [{ day, count }], activeUsers: { … } }
 * ```
 */
export async function getOverview(call: AdminCall<"overview">): Promise<AdminAnswer<"overview">> {
  const { environment } = call.ctx;
  const { names, db, capabilities } = environment;
  const days = call.query.days ?? DEFAULT_DAYS;
  const now = Date.now();
  const indexes = await listIndexes(environment);
  if (indexes.counts && environment.userActivity) return countedOverview(environment, days, now);
  const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
  const since = new Date(startOfToday - (days - 1) * DAY_MS).toISOString();
  const user = (field: string) => names.column("user", field);
  const session = (field: string) => names.column("session", field);
  // Named, because without statistics SQLite prefers walking every session by
  // user (no sort for the distinct) over the `updatedAt` range of the window.
  const indexed = indexes.activity ? ` INDEXED BY ${SESSION_ACTIVITY_INDEX}` : "";
  const activeSince = (ms: number) =>
    db
      .prepare(
        `SELECT COUNT(DISTINCT ${session("userId")}) AS n FROM ${names.table("session")}${indexed} ` +
          `WHERE ${session("updatedAt")} >= ?`,
      )
      .bind(new Date(now - ms).toISOString());
  const withBans = capabilities.userActions && names.hasField("user", "banned");
  const statements = [
    db.prepare(`SELECT COUNT(*) AS n FROM ${names.table("user")}`),
    db.prepare(
      `SELECT COUNT(*) AS n FROM ${names.table("user")} WHERE ${user("emailVerified")} = 1`,
    ),
    withBans
      ? db
          .prepare(
            `SELECT COUNT(*) AS n FROM ${names.table("user")} WHERE ${user("banned")} = 1 ` +
              `AND (${user("banExpires")} IS NULL OR ${user("banExpires")} > ?)`,
          )
          .bind(new Date(now).toISOString())
      : db.prepare("SELECT 0 AS n"),
    capabilities.organizations
      ? db.prepare(`SELECT COUNT(*) AS n FROM ${names.table("organization")}`)
      : db.prepare("SELECT 0 AS n"),
    db
      .prepare(
        `SELECT substr(${user("createdAt")}, 1, 10) AS day, COUNT(*) AS n FROM ${names.table("user")} ` +
          `WHERE ${user("createdAt")} >= ? GROUP BY day`,
      )
      .bind(since),
    activeSince(DAY_MS),
    activeSince(7 * DAY_MS),
    activeSince(30 * DAY_MS),
  ];
  const results = await db.batch<{ n: number; day?: string }>(statements);
  const count = (index: number) => Number(results[index]?.results[0]?.n ?? 0);
  const perDay = new Map((results[4]?.results ?? []).map((row) => [row.day, Number(row.n)]));
  const signUps = Array.from({ length: days }, (_, index) => {
    const day = new Date(startOfToday - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10);
    return { day, count: perDay.get(day) ?? 0 };
  });
  const overview: AdminOverview = {
    totals: {
      users: count(0),
      emailVerified: count(1),
      banned: withBans ? count(2) : null,
      organizations: capabilities.organizations ? count(3) : null,
    },
    signUps,
    activeUsers: { last24Hours: count(5), last7Days: count(6), last30Days: count(7) },
    generatedAt: new Date(now).toISOString(),
  };
  return overview;
}
