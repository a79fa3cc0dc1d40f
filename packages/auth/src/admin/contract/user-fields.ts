/**
 * Every field of a user as the admin API knows it, declared once: what the
 * answer holds (`User`), which columns a query may select, the export and
 * import columns and which fields the profile edit may write all derive
 * from {@link ADMIN_USER_FIELDS}. A field added here appears in each of
 * them, or the compiler names the place that must decide.
 *
 * @see ../../../../../docs/admin-api.md "Shapes"
 */
import { type AnyValidator, type Validator, v } from "@svc/server/routes/contract";

const nullable = <T>(validator: Validator<T, false>) => v.union(validator, v.null());

/** Where and how one user field is used besides the answer. */
export interface UserFieldUse<V extends AnyValidator = AnyValidator> {
  /** Its value in a `User` answer. */
  readonly answer: V;
  /** Kept in svc's activity table rather than better-auth's `user` table. */
  readonly activity?: true;
  /** A column of `GET users/export` and `POST users/import` (in declaration order). */
  readonly exported?: true;
  /**
   * Whether `PATCH users/:id` may write it: `schema` (the default) when the
   * app's better-auth schema lets users set it (`input` not `false`),
   * `operator` even though users may not (verification flags), `never` for
   * identity and timestamps and what has its own audited action (role, ban,
   * two-factor).
   */
  readonly profile?: "schema" | "operator" | "never";
  /** How the dashboard's form checks it. */
  readonly format?: "email" | "url";
}

/** One field: its validator and its uses, kept literal so the lists below are typed by them. */
const field = <V extends AnyValidator, const Use extends Omit<UserFieldUse<V>, "answer">>(
  answer: V,
  use: Use,
): { readonly answer: V } & Use => ({ answer, ...use });

/**
 * The user fields, in answer order: each one's answer validator and uses.
 * Allow-listed: a column not named here (a password hash, a token, a
 * plugin's future field) is never selected, answered or exported.
 *
 * @example
 * ```ts
 * Object.keys(ADMIN_USER_FIELDS).includes("email"); // true
 * ADMIN_USER_FIELDS.emailVerified.profile; // "operator"
 * ```
 */
export const ADMIN_USER_FIELDS = {
  id: field(v.string(), { exported: true, profile: "never" }),
  email: field(v.string(), { exported: true, format: "email" }),
  name: field(v.string(), { exported: true }),
  emailVerified: field(v.boolean(), { exported: true, profile: "operator" }),
  image: field(nullable(v.string()), { exported: true, format: "url" }),
  role: field(nullable(v.string()), { exported: true, profile: "never" }),
  banned: field(
    v.boolean().describe("Whether a ban is in force now (an expired ban reads as not banned)."),
    { exported: true, profile: "never" },
  ),
  banReason: field(nullable(v.string()), { exported: true, profile: "never" }),
  banExpires: field(nullable(v.string()), { exported: true, profile: "never" }),
  username: field(nullable(v.string()), { exported: true }),
  displayUsername: field(nullable(v.string()), { exported: true }),
  twoFactorEnabled: field(v.boolean(), { profile: "never" }),
  phoneNumber: field(nullable(v.string()), { exported: true }),
  phoneNumberVerified: field(v.boolean(), { exported: true, profile: "operator" }),
  isAnonymous: field(v.boolean(), { profile: "never" }),
  createdAt: field(v.string(), { exported: true, profile: "never" }),
  updatedAt: field(v.string(), { exported: true, profile: "never" }),
  lastSignInAt: field(
    nullable(v.string()).describe("The newest sign-in (impersonations excluded)."),
    { activity: true, profile: "never" },
  ),
  lastActiveAt: field(nullable(v.string()).describe("The newest sign-in or session refresh."), {
    activity: true,
    profile: "never",
  }),
};

/** The name of a field of {@link ADMIN_USER_FIELDS}. */
export type AdminUserField = keyof typeof ADMIN_USER_FIELDS;

type Fields = typeof ADMIN_USER_FIELDS;
/** The names of the fields whose use `Key` is set. */
type FieldsWith<Key extends "activity" | "exported"> = {
  [Name in AdminUserField]: Fields[Name] extends { readonly [K in Key]: true } ? Name : never;
}[AdminUserField];

/**
 * The `User` answer's shape: each field's validator, in declaration order.
 *
 * @example
 * ```ts
 * const adminUser = named("User", v.object(userAnswerShape()));
 * ```
 */
export function userAnswerShape(): { [Name in AdminUserField]: Fields[Name]["answer"] } {
  const shape: Record<string, AnyValidator> = {};
  for (const [name, use] of Object.entries(ADMIN_USER_FIELDS)) shape[name] = use.answer;
  return shape as { [Name in AdminUserField]: Fields[Name]["answer"] };
}

/** The names of the fields whose `use` holds, in declaration order. */
function namesWhere(use: (field: UserFieldUse) => boolean): AdminUserField[] {
  return Object.entries(ADMIN_USER_FIELDS)
    .filter(([, declared]) => use(declared))
    .map(([name]) => name as AdminUserField);
}

/**
 * The columns of `GET users/export`, in CSV order; `POST users/import` reads
 * the same names (plus `passwordHash`).
 *
 * @example
 * ```ts
 * USER_EXPORT_COLUMNS.includes("twoFactorEnabled"); // false
 * ```
 */
export const USER_EXPORT_COLUMNS = namesWhere(
  (use) => use.exported === true,
) as FieldsWith<"exported">[];

/**
 * The fields kept in better-auth's `user` table: what a query may select
 * (absent plugins' fields read as `NULL`).
 *
 * @example
 * ```ts
 * `SELECT ${names.select("user", STORED_USER_FIELDS, "u")} FROM "user" u`;
 * ```
 */
export const STORED_USER_FIELDS = namesWhere((use) => use.activity !== true) as Exclude<
  AdminUserField,
  FieldsWith<"activity">
>[];
