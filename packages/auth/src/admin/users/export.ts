import { csvRow } from "../contract/csv.ts";
import { type AdminUser, USER_EXPORT_COLUMNS } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset, type KeysetOrder } from "../keyset.ts";
import { type Row, toUser } from "../records.ts";
import { pageStatement } from "./list.ts";
import { isFiltered, selectUsers, type UserSelection } from "./list-selection.ts";

/** Users read per D1 statement while streaming. */
const PAGE = 1_000;

/**
 * `GET users/export?format=json|csv&search=&role=&banned=&passwordHashes=true`:
 * every user matching the filters of `GET users`, oldest first, streamed in
 * pages of 1,000 (one keyset-range statement each), so 100,000 users leave
 * within a Worker's CPU limit and memory. Nothing but the admin user fields
 * (an allow-list: no session, token, two-factor secret or passkey).
 * `passwordHashes=true` adds each user's email + password hash as stored by
 * better-auth, for moving users to another database with `POST users/import`
 * (they keep their passwords); the audit entry says so. CSV cells that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage
 * return first) are prefixed with `'`, which import removes again.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users/export?format=csv&role=admin
 * ```
 */
export async function exportUsers(
  call: AdminCall<"exportUsers">,
): Promise<AdminAnswer<"exportUsers">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const query = call.query;
  const format = query.format ?? "json";
  const hashes = query.passwordHashes === true;
  const selection: UserSelection = isFiltered(query)
    ? await selectUsers(environment, query)
    : { conditions: [], sortMatches: false };
  const filters = ["search", "role", "banned"]
    .filter((name) => query[name as keyof typeof query] !== undefined)
    .map((name) => `${name}=${String(query[name as keyof typeof query])}`);
  audit.detail = `${format}${hashes ? " with password hashes" : ""}${filters.length > 0 ? `, ${filters.join(", ")}` : ""}`;
  const columns = [...USER_EXPORT_COLUMNS, ...(hashes ? ["passwordHash"] : [])];
  const pages = userPages(environment, selection, hashes);
  const encoder = new TextEncoder();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(format === "json" ? "[" : csvRow(columns)));
    },
    async pull(controller) {
      const next = await pages.next();
      if (next.done) {
        if (format === "json") controller.enqueue(encoder.encode("\n]\n"));
        controller.close();
        return;
      }
      const lines = next.value.map((user) => {
        if (format === "csv")
          return csvRow(columns.map((column) => user[column as keyof ExportedUser]));
        const line = `${first ? "\n" : ",\n"}${JSON.stringify(pick(user, columns))}`;
        first = false;
        return line;
      });
      controller.enqueue(encoder.encode(lines.join("")));
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type":
        format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="users-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
}

type ExportedUser = AdminUser & { passwordHash?: string | null };

/** Pages of users, oldest first, until the last one. */
async function* userPages(
  environment: AdminEnvironment,
  selection: UserSelection,
  hashes: boolean,
): AsyncGenerator<ExportedUser[]> {
  const { names } = environment;
  const order: KeysetOrder = {
    kind: "users:export",
    column: names.column("user", "createdAt", "u"),
    id: names.column("user", "id", "u"),
    direction: "asc",
  };
  const hash = hashes ? `, (${passwordHashSql(environment)}) AS "passwordHash"` : "";
  let cursor: string | undefined;
  do {
    const keyset = new Keyset(order, cursor);
    const { results } = await pageStatement(
      environment,
      keyset,
      selection,
      PAGE + 1,
      hash,
    ).all<Row>();
    const { rows, nextCursor } = keyset.cut(results, PAGE);
    const now = Date.now();
    const users = rows.map((row) => {
      const user: ExportedUser = toUser(row, now);
      if (hashes)
        user.passwordHash = typeof row.passwordHash === "string" ? row.passwordHash : null;
      return user;
    });
    yield users;
    cursor = nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The credential account's password of user `u`, as better-auth stored it. */
function passwordHashSql(environment: AdminEnvironment): string {
  const { names } = environment;
  return (
    `SELECT ${names.column("account", "password", "a")} FROM ${names.table("account")} a ` +
    `WHERE ${names.column("account", "userId", "a")} = u.${names.column("user", "id")} ` +
    `AND ${names.column("account", "providerId", "a")} = 'credential' LIMIT 1`
  );
}

function pick(user: ExportedUser, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [column, user[column as keyof ExportedUser]]));
}
