import type { EditableUserField } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { Row } from "../records.ts";

/**
 * The statement reading the stored values of a user's editable fields
 * (`capabilities.userFields`), for a D1 batch; no row for an unknown id.
 *
 * @example
 * ```ts
 * const [user, profile] = await db.batch([selectUser(environment, id), selectProfile(environment, id)]);
 * ```
 */
export function selectProfile(environment: AdminEnvironment, id: string): D1PreparedStatement {
  const { names, db, capabilities } = environment;
  const fields = ["id", ...capabilities.userFields.map((field) => field.name)];
  return db
    .prepare(
      `SELECT ${names.select("user", fields, "u")} FROM ${names.table("user")} u ` +
        `WHERE ${names.column("user", "id", "u")} = ?`,
    )
    .bind(id);
}

/**
 * A user's editable fields as the admin API answers them (`profile`):
 * booleans for SQLite's 0/1, ISO dates, parsed JSON lists, `null` when unset.
 *
 * @example
 * ```ts
 * readableProfile(capabilities.userFields, { name: "Ann", emailVerified: 1 }); // { name: "Ann", emailVerified: true, … }
 * ```
 */
export function readableProfile(fields: EditableUserField[], row: Row): Record<string, unknown> {
  const profile: Record<string, unknown> = {};
  for (const field of fields) {
    const value = row[field.name];
    if (value === null || value === undefined) profile[field.name] = null;
    else if (field.type === "boolean") profile[field.name] = value === 1 || value === true;
    else if (field.type === "date") profile[field.name] = new Date(value as string).toISOString();
    else if (field.type.endsWith("[]") && typeof value === "string") {
      profile[field.name] = parsedOrText(value);
    } else profile[field.name] = value;
  }
  return profile;
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
