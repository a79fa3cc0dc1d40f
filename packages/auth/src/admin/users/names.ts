import { validationFailed } from "@svc/server";
import { MAX_USER_NAMES } from "../contract/index.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import type { Row } from "../records.ts";

/**
 * `GET users/names?ids=a,b`: the id, name and email of each user named (at
 * most 100 distinct ids, one statement by primary key), so a page of calls
 * shows its callers by name with one request instead of one per row. Only
 * those three fields are selected; an id no user has is left out of the
 * answer (a deleted user's calls keep their id).
 *
 * @throws {SvcError} `VALIDATION_FAILED` (path `query.ids`) for more than 100 ids
 * @example
 * ```ts
 * GET /_svc/admin/auth/users/names?ids=u1,u2 → { users: [{ id: "u1", name: "Ann", email: "ann@example.com" }] }
 * ```
 */
export async function listUserNames(
  call: AdminCall<"listUserNames">,
): Promise<AdminAnswer<"listUserNames">> {
  const { names, db } = call.ctx.environment;
  const ids = [
    ...new Set(
      call.query.ids
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== ""),
    ),
  ];
  if (ids.length > MAX_USER_NAMES) {
    throw validationFailed([
      { path: "query.ids", message: `at most ${MAX_USER_NAMES} ids (got ${ids.length})` },
    ]);
  }
  if (ids.length === 0) return { users: [] };
  const { results } = await db
    .prepare(
      `SELECT ${names.select("user", ["id", "name", "email"], "u")} FROM ${names.table("user")} u ` +
        `WHERE ${names.column("user", "id", "u")} IN (${ids.map(() => "?").join(", ")})`,
    )
    .bind(...ids)
    .all<Row>();
  return {
    users: results.map((row) => ({
      id: String(row.id),
      name: String(row.name),
      email: String(row.email),
    })),
  };
}
