/**
 * DEV PREVIEW ONLY: `GET overview` computed from the preview's in-memory
 * data, with the real route's shape (UTC days, zero days included, active
 * users from session use).
 */
import type { Overview } from "../../ui/api/types.ts";
import type { PreviewData } from "./seed.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The overview of the preview data over the last `days` UTC days. */
export function previewOverview(data: PreviewData, days: number, organizations: boolean): Overview {
  const now = Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const signUps = Array.from({ length: days }, (_, index) => ({
    day: new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
    count: 0,
  }));
  const byDay = new Map(signUps.map((entry) => [entry.day, entry]));
  for (const user of data.users) {
    const entry = byDay.get(user.createdAt.slice(0, 10));
    if (entry) entry.count++;
  }
  const activeWithin = (windowMs: number) =>
    data.users.filter((user) =>
      (data.sessions.get(user.id) ?? []).some(
        (session) => now - Date.parse(session.updatedAt) <= windowMs,
      ),
    ).length;
  return {
    totals: {
      users: data.users.length,
      emailVerified: data.users.filter((user) => user.emailVerified).length,
      banned: data.users.filter((user) => user.banned).length,
      organizations: organizations ? data.organizations.length : null,
    },
    signUps,
    activeUsers: {
      last24Hours: activeWithin(DAY_MS),
      last7Days: activeWithin(7 * DAY_MS),
      last30Days: activeWithin(30 * DAY_MS),
    },
    generatedAt: new Date(now).toISOString(),
  };
}
