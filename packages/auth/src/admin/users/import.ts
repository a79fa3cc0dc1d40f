import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import {
  checkImportRow,
  type ImportRow,
  MAX_IMPORT_USERS,
  readImportRecords,
} from "./import-rows.ts";

/** D1 binds at most 100 values per statement. */
const MAX_BINDS = 100;

/** What happened to one row of an import. */
export interface ImportRowResult {
  /** Position in the request, from 0. */
  index: number;
  id: string | null;
  email: string | null;
  /** `created`; `valid` on a dry run; `skipped` when the user exists; `invalid` with `errors`. */
  status: "created" | "valid" | "skipped" | "invalid";
  errors?: { field: string; message: string }[];
}

/**
 * `POST users/import[?dryRun=true]`: adds up to {@link MAX_IMPORT_USERS}
 * users, given as a JSON array (or `{ "users": [...] }`) or as CSV with a
 * header (`content-type: text/csv`), in the shape `GET users/export`
 * writes. Each row is checked on its own and reported (`created`, `valid` on
 * a dry run, `skipped` when its id, email or username exists, `invalid` with
 * per-field errors); the valid ones are inserted in one D1 batch with the
 * audit entry, so the request lands whole or not at all.
 *
 * Original ids and creation times are kept. `passwordHash` (as better-auth
 * stores it, scrypt `salt:key` unless the app configured its own hash)
 * becomes the user's credential account, so the user signs in with the same
 * password. Rows are written as they are: better-auth's database hooks do not
 * run, as for a restore.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/import?dryRun=true [{ "email": "ann@example.com", "name": "Ann" }]
 * → 200 { dryRun: true, created: 0, valid: 1, skipped: 0, invalid: 0, results: [...] }
 * ```
 */
export async function importUsers(
  call: AdminCall<"importUsers">,
): Promise<AdminAnswer<"importUsers">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { dryRun = false } = call.query;
  const records = await readImportRecords(call.request);
  const results: ImportRowResult[] = [];
  const rows: { index: number; row: ImportRow }[] = [];
  for (const [index, record] of records.entries()) {
    const checked = checkImportRow(environment, record);
    if ("errors" in checked) {
      results.push({
        index,
        id: checked.id,
        email: checked.email,
        status: "invalid",
        errors: checked.errors,
      });
    } else rows.push({ index, row: checked });
  }
  const taken = await existing(
    environment,
    rows.map(({ row }) => row),
  );
  const fresh: ImportRow[] = [];
  for (const { index, row } of rows) {
    const clash = [
      taken.ids.has(row.id) && "id",
      taken.emails.has(row.email) && "email",
      row.username !== null && taken.usernames.has(row.username) && "username",
    ].filter((field): field is string => field !== false);
    if (clash.length > 0) {
      results.push({
        index,
        id: row.id,
        email: row.email,
        status: "skipped",
        errors: clash.map((field) => ({ field, message: `a user with this ${field} exists` })),
      });
      continue;
    }
    // Within the request too: the first row wins.
    taken.ids.add(row.id);
    taken.emails.add(row.email);
    if (row.username !== null) taken.usernames.add(row.username);
    fresh.push(row);
    results.push({ index, id: row.id, email: row.email, status: dryRun ? "valid" : "created" });
  }
  results.sort((a, b) => a.index - b.index);
  const count = (status: ImportRowResult["status"]) =>
    results.filter((result) => result.status === status).length;
  const summary = {
    created: count("created"),
    valid: count("valid"),
    skipped: count("skipped"),
    invalid: count("invalid"),
  };
  audit.detail =
    `${dryRun ? "dry run: " : ""}${records.length} rows: ${dryRun ? `${summary.valid} valid` : `${summary.created} created`}, ` +
    `${summary.skipped} skipped, ${summary.invalid} invalid`;
  if (!dryRun && fresh.length > 0) {
    await environment.db.batch([...insertStatements(environment, fresh), audit.okStatement()]);
  }
  return { dryRun, ...summary, results };
}

/** Ids, emails and usernames of the rows that already exist. */
async function existing(
  environment: AdminEnvironment,
  rows: ImportRow[],
): Promise<{ ids: Set<string>; emails: Set<string>; usernames: Set<string> }> {
  const { names, db, capabilities } = environment;
  const taken = { ids: new Set<string>(), emails: new Set<string>(), usernames: new Set<string>() };
  const lookups: [keyof typeof taken, string, string[]][] = [
    ["ids", "id", rows.map((row) => row.id)],
    ["emails", "email", rows.map((row) => row.email)],
    ...(capabilities.username
      ? [
          [
            "usernames",
            "username",
            rows.flatMap((row) => (row.username === null ? [] : [row.username])),
          ] as [keyof typeof taken, string, string[]],
        ]
      : []),
  ];
  const statements: D1PreparedStatement[] = [];
  const targets: (keyof typeof taken)[] = [];
  for (const [set, field, values] of lookups) {
    for (let i = 0; i < values.length; i += MAX_BINDS) {
      const slice = values.slice(i, i + MAX_BINDS);
      const column = names.column("user", field);
      statements.push(
        db
          .prepare(
            `SELECT ${column} AS value FROM ${names.table("user")} WHERE ${column} IN (${slice.map(() => "?").join(", ")})`,
          )
          .bind(...slice),
      );
      targets.push(set);
    }
  }
  if (statements.length === 0) return taken;
  const answers = await db.batch<{ value: string }>(statements);
  answers.forEach((answer, i) => {
    for (const row of answer.results) taken[targets[i]!].add(String(row.value));
  });
  return taken;
}

/** Multi-row `INSERT`s of the users and their credential accounts, each under D1's 100 binds. */
function insertStatements(environment: AdminEnvironment, rows: ImportRow[]): D1PreparedStatement[] {
  const { names, db, auth } = environment;
  const statements: D1PreparedStatement[] = [];
  const insert = (model: string, records: [string, unknown][][]) => {
    // Rows of one model may carry different optional fields: group by field list.
    const groups = new Map<string, [string, unknown][][]>();
    for (const record of records) {
      const key = record.map(([field]) => field).join(",");
      groups.set(key, [...(groups.get(key) ?? []), record]);
    }
    for (const group of groups.values()) {
      const fields = group[0]!.map(([field]) => field);
      const perStatement = Math.max(1, Math.floor(MAX_BINDS / fields.length));
      for (let i = 0; i < group.length; i += perStatement) {
        const slice = group.slice(i, i + perStatement);
        const tuple = `(${fields.map(() => "?").join(", ")})`;
        statements.push(
          db
            .prepare(
              `INSERT INTO ${names.table(model)} (${fields.map((field) => names.column(model, field)).join(", ")}) ` +
                `VALUES ${slice.map(() => tuple).join(", ")}`,
            )
            .bind(...slice.flatMap((record) => record.map(([, value]) => value))),
        );
      }
    }
  };
  insert(
    "user",
    rows.map((row) => row.user),
  );
  insert(
    "account",
    rows.flatMap((row) => {
      if (row.passwordHash === null) return [];
      const id = auth.generateId({ model: "account" });
      const account: [string, unknown][] = [
        ["accountId", row.id],
        ["providerId", "credential"],
        ["userId", row.id],
        ["password", row.passwordHash],
        ["createdAt", row.createdAt],
        ["updatedAt", row.createdAt],
      ];
      if (id !== false) account.unshift(["id", id]);
      return [account];
    }),
  );
  return statements;
}
