import type { AdminApi } from "../../api/admin.ts";
import type { LogQuery } from "../../api/logs.ts";

/**
 * The logs query with its caller filter as the records hold it: an email
 * typed into "Caller" becomes that user's id (records name callers by id),
 * found through the users list; anything else (an id, `cron:job`) is kept.
 * An email no user has is kept too, and matches nothing.
 *
 * @example await withCallerId(api, { user: "ann@example.com" }) // { user: "IL1zPS…" }
 */
export async function withCallerId(
  api: AdminApi,
  query: LogQuery,
  signal?: AbortSignal,
): Promise<LogQuery> {
  const typed = query.user?.trim() ?? "";
  if (!typed.includes("@")) return query;
  const { users } = await api.listUsers({ query: { search: typed, limit: 10 }, signal });
  const email = typed.toLowerCase();
  const user = users.find((candidate) => candidate.email.toLowerCase() === email);
  return user === undefined ? query : { ...query, user: user.id };
}
