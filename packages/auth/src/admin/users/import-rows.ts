import { SvcError } from "@svc/server";
import { decodeUtf8, isJsonContentType, readBodyBytes } from "@svc/server/internal";
import { CsvError, readCsvTable, type USER_EXPORT_COLUMNS } from "../contract/index.ts";
import { isEmailAddress } from "../email-address.ts";
import type { AdminEnvironment } from "../environment.ts";
import { splitRoles } from "../plugin-settings.ts";

/**
 * Most users one `POST users/import` takes. A client splits a larger file
 * into requests of this size (the dashboard does, showing progress), which
 * keeps each request to about 120 D1 statements and well inside a Worker's
 * CPU and query limits.
 *
 * @example
 * ```ts
 * for (let i = 0; i < users.length; i += MAX_IMPORT_USERS) await post(users.slice(i, i + MAX_IMPORT_USERS));
 * ```
 */
export const MAX_IMPORT_USERS = 500;
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
/** better-auth's default password hash: scrypt, `salt:key` in hex. */
const SCRYPT_HASH = /^[0-9a-f]{32}:[0-9a-f]{128}$/;
const MAX_TEXT = 2000;

/**
 * What a row of an import may hold: the export's columns
 * (`USER_EXPORT_COLUMNS`) and the credential's `passwordHash`. Other
 * columns are ignored.
 */
type ImportColumn = (typeof USER_EXPORT_COLUMNS)[number] | "passwordHash";

/** A row checked and ready to insert. */
export interface ImportRow {
  user: [field: string, value: unknown][];
  id: string;
  email: string;
  username: string | null;
  passwordHash: string | null;
  createdAt: string;
}

/** A row that failed its checks: what identifies it, and each problem. */
export interface InvalidImportRow {
  id: string | null;
  email: string | null;
  errors: { field: string; message: string }[];
}

/**
 * The request's users as records: a JSON array, `{ "users": [...] }`, or CSV
 * with a header (`content-type: text/csv`); at most {@link MAX_IMPORT_USERS}
 * and 2 MiB.
 *
 * @throws {SvcError} `BAD_REQUEST` / `PAYLOAD_TOO_LARGE` naming what is wrong
 * @example
 * ```ts
 * const records = await readImportRecords(call.request);
 * ```
 */
export async function readImportRecords(request: Request): Promise<Record<string, unknown>[]> {
  const bytes = await readBodyBytes(request, MAX_IMPORT_BYTES);
  const text = decodeUtf8(bytes);
  const type = request.headers.get("content-type") ?? "";
  let records: unknown;
  if (/^text\/csv\b/i.test(type)) {
    try {
      records = readCsvTable(text).records.map((record) => record.cells);
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      throw new SvcError("BAD_REQUEST", `The CSV body cannot be read. ${error.message}`);
    }
  } else if (isJsonContentType(type)) {
    try {
      records = JSON.parse(text);
    } catch {
      throw new SvcError("BAD_REQUEST", "The request body is not valid JSON.");
    }
    if (typeof records === "object" && records !== null && !Array.isArray(records)) {
      records = Reflect.get(records, "users");
    }
  } else {
    throw new SvcError(
      "BAD_REQUEST",
      "Send the users as JSON (content-type: application/json) or CSV (content-type: text/csv).",
    );
  }
  if (
    !Array.isArray(records) ||
    records.some((record) => typeof record !== "object" || record === null || Array.isArray(record))
  ) {
    throw new SvcError(
      "BAD_REQUEST",
      "The body must be an array of user objects (or { users: [...] }).",
    );
  }
  if (records.length === 0) throw new SvcError("BAD_REQUEST", "The body holds no users.");
  if (records.length > MAX_IMPORT_USERS) {
    throw new SvcError(
      "BAD_REQUEST",
      `At most ${MAX_IMPORT_USERS} users per request (got ${records.length}); send the rest in further requests.`,
    );
  }
  return records as Record<string, unknown>[];
}

/**
 * Checks one record on its own: the user row's fields in the schema's names,
 * ready to insert, or every problem found (per field, in plain words).
 *
 * @example
 * ```ts
 * const checked = checkImportRow(environment, { email: "ann@example.com", name: "Ann" });
 * if ("errors" in checked) report(checked.errors);
 * ```
 */
export function checkImportRow(
  environment: AdminEnvironment,
  record: Record<string, unknown>,
): ImportRow | InvalidImportRow {
  const { names, roles, capabilities, auth } = environment;
  const errors: { field: string; message: string }[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const present = (field: ImportColumn) =>
    record[field] !== undefined && record[field] !== null && record[field] !== "";
  const textOf = (field: ImportColumn, max = MAX_TEXT): string | null => {
    if (!present(field)) return null;
    const value = record[field];
    if (typeof value !== "string" || value.length > max) {
      fail(field, `must be text of at most ${max} characters`);
      return null;
    }
    return value;
  };
  const boolOf = (field: ImportColumn): boolean => {
    if (!present(field)) return false;
    const value = record[field];
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    fail(field, "must be true or false");
    return false;
  };
  const dateOf = (field: ImportColumn): string | null => {
    const value = textOf(field, 40);
    if (value === null) return null;
    const time = Date.parse(value);
    if (Number.isNaN(time)) {
      fail(field, "must be a date (ISO 8601)");
      return null;
    }
    return new Date(time).toISOString();
  };
  const rawEmail = textOf("email", 320);
  const email = rawEmail?.trim().toLowerCase() ?? null;
  if (email === null) fail("email", "is required");
  else if (!isEmailAddress(email)) fail("email", "must be an email address");
  const name = textOf("name", 200)?.trim() ?? null;
  if (name === null || name === "") fail("name", "is required (1 to 200 characters)");
  let id = textOf("id", 255);
  if (id !== null && [...id].some((char) => char.charCodeAt(0) < 0x20)) {
    fail("id", "must not hold control characters");
  }
  if (id === null) {
    const generated = auth.generateId({ model: "user" });
    id = generated === false ? crypto.randomUUID() : generated;
  }
  const now = new Date().toISOString();
  const createdAt = dateOf("createdAt") ?? now;
  const updatedAt = dateOf("updatedAt") ?? createdAt;
  const user: [string, unknown][] = [
    ["id", id],
    ["email", email],
    ["name", name],
    ["emailVerified", boolOf("emailVerified") ? 1 : 0],
    ["image", textOf("image")],
    ["createdAt", createdAt],
    ["updatedAt", updatedAt],
  ];
  const optional = (field: ImportColumn, value: unknown) => {
    if (!names.hasField("user", field)) {
      if (value !== null && value !== false) fail(field, "this app's schema has no such field");
      return;
    }
    user.push([field, value]);
  };
  if (present("role")) {
    const known = roles?.assignable ?? [];
    const given = splitRoles(record.role);
    for (const role of given) {
      if (!known.includes(role))
        fail("role", `unknown role ${JSON.stringify(role)} (known: ${known.join(", ") || "none"})`);
    }
    optional("role", given.join(","));
  }
  const banned = boolOf("banned");
  if (banned || present("banReason") || present("banExpires")) {
    optional("banned", banned ? 1 : 0);
    optional("banReason", banned ? textOf("banReason") : null);
    optional("banExpires", banned ? dateOf("banExpires") : null);
  }
  const username = textOf("username", 100);
  if (username !== null) {
    if (!capabilities.username) fail("username", "the username plugin is not enabled");
    else {
      user.push(["username", username.toLowerCase()]);
      user.push(["displayUsername", textOf("displayUsername", 100) ?? username]);
    }
  }
  if (present("phoneNumber")) {
    optional("phoneNumber", textOf("phoneNumber", 40));
    optional("phoneNumberVerified", boolOf("phoneNumberVerified") ? 1 : 0);
  }
  const passwordHash = textOf("passwordHash", 1000);
  if (passwordHash !== null) {
    if (!environment.emailAndPassword) {
      fail("passwordHash", "email + password sign-in is not enabled, so it could never be used");
    } else if (!customHashing(environment) && !SCRYPT_HASH.test(passwordHash)) {
      fail(
        "passwordHash",
        "must be better-auth's scrypt hash (salt:key in hex); see docs/admin-api.md to import other hashes",
      );
    }
  }
  if (errors.length > 0) return { id, email, errors };
  return {
    user,
    id,
    email: email!,
    username: username === null ? null : username.toLowerCase(),
    passwordHash,
    createdAt,
  };
}

/** Whether the app hashes or verifies passwords itself (so any stored form may be valid). */
function customHashing(environment: AdminEnvironment): boolean {
  const password = environment.auth.options.emailAndPassword?.password;
  return password?.hash !== undefined || password?.verify !== undefined;
}
