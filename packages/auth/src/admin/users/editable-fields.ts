import type { BetterAuthDBSchema, BetterAuthPlugin } from "better-auth";
import {
  ADMIN_USER_FIELDS,
  type AdminUserField,
  type EditableUserField,
  type UserFieldUse,
} from "../contract/index.ts";

/** A field's declared use, or `undefined` for one svc does not declare (the app's `additionalFields`). */
function declaredUse(name: string): UserFieldUse | undefined {
  return Object.hasOwn(ADMIN_USER_FIELDS, name)
    ? ADMIN_USER_FIELDS[name as AdminUserField]
    : undefined;
}

/**
 * The user fields an operator may edit, read from better-auth's resolved
 * schema: the core profile (name, email, email verified, image), what
 * plugins add (username, phone number) and the app's `additionalFields`,
 * each with its type, so the dashboard builds its form from the same list
 * `PATCH users/:id` checks against. What it may write, and the formats,
 * come from `ADMIN_USER_FIELDS`: never identity, timestamps or what has its
 * own audited action (role, ban, two-factor); a field users may not set
 * themselves (`input: false`) only when declared for operators (the
 * verification flags); the app's own fields as its schema says.
 *
 * @example
 * ```ts
 * editableUserFields((await auth.$context).tables, plugins).map((field) => field.name);
 * // ["name", "email", "emailVerified", "image", "username", "displayUsername", "plan"]
 * ```
 */
export function editableUserFields(
  tables: BetterAuthDBSchema,
  plugins: readonly BetterAuthPlugin[],
): EditableUserField[] {
  const username = usernameLimits(plugins);
  return Object.entries(tables.user?.fields ?? {})
    .filter(([name, field]) => {
      const profile = declaredUse(name)?.profile ?? "schema";
      return profile === "operator" || (profile === "schema" && field.input !== false);
    })
    .map(([name, field]) => {
      const type = field.type;
      const format = declaredUse(name)?.format;
      const edited: EditableUserField = {
        name,
        type: Array.isArray(type) ? "enum" : (String(type) as EditableUserField["type"]),
        required: field.required === true && field.defaultValue === undefined,
        unique: field.unique === true || name === "email",
      };
      if (Array.isArray(type)) edited.options = type.map(String);
      if (format !== undefined) edited.format = format;
      if (name === "username") {
        edited.minLength = username.min;
        edited.maxLength = username.max;
      }
      return edited;
    });
}

/**
 * The username plugin's length limits and its validator (default: letters,
 * digits, `_` and `.`), and whether it lowercases usernames, as it applies them.
 *
 * @example
 * ```ts
 * const { min, max } = usernameLimits(plugins);
 * ```
 */
export function usernameLimits(plugins: readonly BetterAuthPlugin[]): {
  min: number;
  max: number;
  validate: (username: string) => boolean | Promise<boolean>;
  normalize: (username: string) => string;
} {
  const options = (plugins.find((plugin) => plugin.id === "username")?.options ?? {}) as Record<
    string,
    unknown
  >;
  const validator = options.usernameValidator;
  const normalization = options.usernameNormalization;
  return {
    min: typeof options.minUsernameLength === "number" ? options.minUsernameLength : 3,
    max: typeof options.maxUsernameLength === "number" ? options.maxUsernameLength : 30,
    validate:
      typeof validator === "function"
        ? (validator as (username: string) => boolean | Promise<boolean>)
        : (username) => /^[a-zA-Z0-9_.]+$/.test(username),
    normalize:
      normalization === false
        ? (username) => username
        : typeof normalization === "function"
          ? (normalization as (username: string) => string)
          : (username) => username.toLowerCase(),
  };
}
