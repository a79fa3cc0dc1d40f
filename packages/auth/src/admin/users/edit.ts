import { SvcError, v } from "@svc/server";
import { checkBody } from "@svc/server/routes";
import type { EditableUserField } from "../contract/index.ts";
import { isEmailAddress } from "../email-address.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import type { Row } from "../records.ts";
import { usernameLimits } from "./editable-fields.ts";
import { loadUserRow, selectUser, userOf } from "./load.ts";
import { readableProfile, selectProfile } from "./profile.ts";

const MAX_TEXT = 2000;

/** What better-auth's internal adapter offers for writing a user (runs its `databaseHooks`). */
interface UserWriter {
  updateUser(id: string, data: Record<string, unknown>): Promise<unknown>;
}

/**
 * `PATCH users/:id` with any of the fields `GET capabilities` lists as
 * `userFields` (name, email, email verified, image, username, phone number,
 * the app's `additionalFields`): each checked against its schema type and
 * rules, unique ones against other users (`409`), then written through
 * better-auth's internal adapter, so its `databaseHooks.user.update` run.
 * A new email is unverified unless `emailVerified` is given too.
 *
 * @example
 * ```ts
 * PATCH /_svc/admin/auth/users/u1 { "name": "Ann Lee", "email": "ann@example.org" } → { user, profile }
 * ```
 */
export async function editUser(call: AdminCall<"updateUser">): Promise<AdminAnswer<"updateUser">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const id = call.params.id;
  const fields = environment.capabilities.userFields;
  const body = call.body;
  checkBody(
    body,
    v.object(Object.fromEntries(fields.map((field) => [field.name, v.optional(v.any())]))),
  );
  const before =
    (await selectProfile(environment, id).first<Row>()) ?? (await loadUserRow(environment, id));
  const data = await checkEdits(environment, body);
  if (typeof data.email === "string" && data.email !== before.email && !("emailVerified" in data)) {
    if (fields.some((field) => field.name === "emailVerified")) data.emailVerified = false;
  }
  await assertUniqueValues(environment, id, data);
  const changed = Object.keys(data).filter((name) => !sameValue(before[name], data[name]));
  audit.detail = changed.length === 0 ? "nothing changed" : `changed ${changed.join(", ")}`;
  if (changed.length > 0) {
    const writer = environment.auth.internalAdapter as unknown as UserWriter;
    await writer.updateUser(
      id,
      Object.fromEntries([...changed.map((name) => [name, data[name]]), ["updatedAt", new Date()]]),
    );
  }
  const [user, profile] = await environment.db.batch<Row>([
    selectUser(environment, id),
    selectProfile(environment, id),
  ]);
  return {
    user: userOf(user, id),
    profile: readableProfile(fields, profile?.results[0] ?? {}),
  };
}

/** Checks each given field against its schema type; the values to store, or every problem at once. */
async function checkEdits(
  environment: AdminEnvironment,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const issues = new Issues("body");
  const data: Record<string, unknown> = {};
  const byName = new Map(environment.capabilities.userFields.map((field) => [field.name, field]));
  for (const [name, raw] of Object.entries(body)) {
    const field = byName.get(name);
    if (field === undefined || raw === undefined) continue;
    const result = await checkValue(environment, field, raw);
    if ("problem" in result) issues.add(name, result.problem);
    else data[name] = result.value;
  }
  if (Object.keys(body).length === 0) issues.add("", "give at least one field to change");
  issues.throwIfAny();
  return data;
}

async function checkValue(
  environment: AdminEnvironment,
  field: EditableUserField,
  raw: unknown,
): Promise<{ value: unknown } | { problem: string }> {
  if (raw === null || raw === "") {
    return field.required ? { problem: "is required" } : { value: null };
  }
  switch (field.type) {
    case "string": {
      if (typeof raw !== "string") return { problem: "must be text" };
      const value = raw.trim();
      if (value.length > (field.maxLength ?? MAX_TEXT)) {
        return { problem: `must be at most ${field.maxLength ?? MAX_TEXT} characters` };
      }
      if (field.format === "email") {
        return isEmailAddress(value)
          ? { value: value.toLowerCase() }
          : { problem: "must be an email address" };
      }
      if (field.format === "url" && !/^(https?:\/\/|data:image\/)/.test(value)) {
        return { problem: "must be an http(s) URL or an image data URL" };
      }
      if (field.name === "username") return checkUsername(environment, value);
      return { value };
    }
    case "boolean":
      return typeof raw === "boolean" ? { value: raw } : { problem: "must be true or false" };
    case "number":
      return typeof raw === "number" && Number.isFinite(raw)
        ? { value: raw }
        : { problem: "must be a number" };
    case "date": {
      const date = typeof raw === "string" ? new Date(raw) : null;
      return date !== null && !Number.isNaN(date.getTime())
        ? { value: date }
        : { problem: "must be a date (ISO 8601)" };
    }
    case "enum":
      return typeof raw === "string" && (field.options ?? []).includes(raw)
        ? { value: raw }
        : { problem: `must be one of ${(field.options ?? []).join(", ")}` };
    case "string[]":
      return Array.isArray(raw) && raw.every((item) => typeof item === "string")
        ? { value: raw }
        : { problem: "must be a list of texts" };
    case "number[]":
      return Array.isArray(raw) && raw.every((item) => typeof item === "number")
        ? { value: raw }
        : { problem: "must be a list of numbers" };
    default:
      return { value: raw };
  }
}

async function checkUsername(
  environment: AdminEnvironment,
  value: string,
): Promise<{ value: unknown } | { problem: string }> {
  const limits = usernameLimits(environment.auth.options.plugins ?? []);
  if (value.length < limits.min || value.length > limits.max) {
    return { problem: `must be ${limits.min} to ${limits.max} characters` };
  }
  if (!(await limits.validate(value))) {
    return { problem: "may contain only letters, digits, underscores and dots" };
  }
  return { value: limits.normalize(value) };
}

async function assertUniqueValues(
  environment: AdminEnvironment,
  id: string,
  data: Record<string, unknown>,
): Promise<void> {
  const { names, db, capabilities } = environment;
  const unique = capabilities.userFields.filter(
    (field) => field.unique && data[field.name] !== undefined && data[field.name] !== null,
  );
  if (unique.length === 0) return;
  const found = await db.batch(
    unique.map((field) =>
      db
        .prepare(
          `SELECT 1 FROM ${names.table("user")} WHERE ${names.column("user", field.name)} = ? ` +
            `AND ${names.column("user", "id")} != ? LIMIT 1`,
        )
        .bind(data[field.name], id),
    ),
  );
  const issues = unique
    .filter((_, index) => (found[index]?.results.length ?? 0) > 0)
    .map((field) => ({ path: `body.${field.name}`, message: "another user has it" }));
  if (issues.length > 0) {
    const taken = issues.map((issue) => issue.path.slice("body.".length)).join(", ");
    throw new SvcError("CONFLICT", `Another user already has this ${taken}.`, { issues });
  }
}

function sameValue(stored: unknown, next: unknown): boolean {
  if (next instanceof Date)
    return stored !== null && new Date(String(stored)).getTime() === next.getTime();
  if (typeof next === "boolean") return (stored === 1 || stored === true) === next;
  if (Array.isArray(next)) return typeof stored === "string" && stored === JSON.stringify(next);
  return (stored ?? null) === next;
}
