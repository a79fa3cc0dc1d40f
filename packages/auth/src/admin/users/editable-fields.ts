import type { BetterAuthDBSchema, BetterAuthPlugin } from "better-auth";
import type { EditableUserField } from "../contract/index.ts";

/**
 * User fields no profile edit may write: identity and timestamps, and what
 * has its own audited action (role, ban, two-factor).
 */
const MANAGED_ELSEWHERE = new Set([
  "id",
  "createdAt",
  "updatedAt",
  "role",
  "banned",
  "banReason",
  "banExpires",
  "twoFactorEnabled",
]);

/** Verification flags an operator may set though users may not (`input: false`). */
const OPERATOR_ONLY = new Set(["emailVerified", "phoneNumberVerified"]);

/**
 * The user fields an operator may edit, read from better-auth's resolved
 * schema: the core profile (name, email, email verified, image), what
 * plugins add (username, phone number) and the app's `additionalFields`,
 * each with its type, so the dashboard builds its form from the same list
 * `PATCH users/:id` checks against. Fields users may not set themselves
 * (`input: false`) are left out, except the verification flags.
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
    .filter(
      ([name, field]) =>
        !MANAGED_ELSEWHERE.has(name) && (field.input !== false || OPERATOR_ONLY.has(name)),
    )
    .map(([name, field]) => {
      const type = field.type;
      const edited: EditableUserField = {
        name,
        type: Array.isArray(type) ? "enum" : (String(type) as EditableUserField["type"]),
        required: field.required === true && field.defaultValue === undefined,
        unique: field.unique === true || name === "email",
      };
      if (Array.isArray(type)) edited.options = type.map(String);
      if (name === "email") edited.format = "email";
      if (name === "image") edited.format = "url";
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
