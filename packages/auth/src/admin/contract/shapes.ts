/**
 * The records the admin API answers, as validators: the server builds its
 * answers as their types, the OpenAPI document and the docs print them by
 * name, and the dashboard reads the same types. Allow-listed fields only:
 * never a password, a token (but {@link impersonation}'s, answered once) or
 * a two-factor secret. Timestamps are ISO-8601 strings.
 *
 * @see ../../../../../docs/admin-api.md "Shapes"
 */
import { type Infer, named, oneOf, type Validator, v } from "@svc/server/routes/contract";
import { userAnswerShape } from "./user-fields.ts";

const nullable = <T>(validator: Validator<T, false>) => v.union(validator, v.null());

/**
 * A sign-in link the admin API can have better-auth email to a user, through the app's own sender:
 * `magic-link` (the magic link plugin's `sendMagicLink`) signs them in;
 * `password-setup` (`emailAndPassword.sendResetPassword`) lets them choose a password.
 */
export const signInLinkKind = v.union(v.literal("magic-link"), v.literal("password-setup"));
/** @see {@link signInLinkKind} */
export type SignInLinkKind = Infer<typeof signInLinkKind>;

/**
 * What became of a sign-in link: `sent` when the app's sender accepted it; otherwise
 * `error` says why (the user still exists; send again with `POST users/:id/sign-in-link`).
 */
export const signInLinkOutcome = named(
  "SignInLinkOutcome",
  v.union(
    v.object({ kind: signInLinkKind, sentTo: v.string(), sent: v.literal(true) }),
    v.object({
      kind: signInLinkKind,
      sentTo: v.string(),
      sent: v.literal(false),
      error: v.object({ code: v.string(), message: v.string() }),
    }),
  ),
);
/** @see {@link signInLinkOutcome} */
export type SignInLinkOutcome = Infer<typeof signInLinkOutcome>;

/** One user field an operator may edit, from better-auth's schema: what the dashboard's form shows. */
export const editableUserField = named(
  "EditableUserField",
  v.object({
    name: v.string(),
    /** better-auth's field type; `enum` when the schema lists the allowed values (`options`). */
    type: oneOf(["string", "number", "boolean", "date", "json", "string[]", "number[]", "enum"]),
    required: v.boolean().describe("`null` / empty is refused."),
    unique: v.boolean().describe("No two users may share a value (`409` otherwise)."),
    options: v.optional(v.array(v.string())),
    format: v.optional(oneOf(["email", "url"])),
    minLength: v.optional(v.number()),
    maxLength: v.optional(v.number()),
  }),
);
/** @see {@link editableUserField} */
export type EditableUserField = Infer<typeof editableUserField>;

/** Which surfaces apply (`GET capabilities`): the dashboard hides every control whose flag is off. */
export const capabilities = named(
  "Capabilities",
  v.object({
    userActions: v
      .boolean()
      .describe("admin plugin: role, ban, password, impersonate, create, delete."),
    organizations: v
      .boolean()
      .describe("organization plugin: organizations, members, invitations."),
    twoFactor: v.boolean().describe("twoFactor plugin: disable two-factor."),
    passkeys: v.boolean().describe("passkey plugin: list / revoke passkeys."),
    linkedAccounts: v.literal(true),
    sessions: v.literal(true),
    username: v.boolean().describe("username plugin: searchable, shown in user fields."),
    roles: v
      .array(v.string())
      .describe("Roles an operator may assign (empty without the admin plugin)."),
    plugins: v
      .array(v.string())
      .describe("Ids of the enabled better-auth plugins (svc's own left out)."),
    auditActions: v.array(v.string()).describe("Every action the audit trail records."),
    passwordLength: v.object({ min: v.number(), max: v.number() }),
    userFields: v.array(editableUserField).describe("Fields `PATCH users/:id` takes."),
    signInLinks: v.array(signInLinkKind).describe("Sign-in links this app can email."),
  }),
);
/** @see {@link capabilities} */
export type Capabilities = Infer<typeof capabilities>;

/**
 * A user as the admin API answers it: allow-listed fields only, never a
 * password or token; the fields are declared once in `ADMIN_USER_FIELDS`.
 */
export const adminUser = named("User", v.object(userAnswerShape()));
/** @see {@link adminUser} */
export type AdminUser = Infer<typeof adminUser>;

/**
 * Whom a user id names, and nothing more: how a list of ids (the callers of
 * a page of calls) is shown by name and email without loading each user.
 */
export const adminUserName = named(
  "UserName",
  v.object({ id: v.string(), name: v.string(), email: v.string() }),
);
/** @see {@link adminUserName} */
export type AdminUserName = Infer<typeof adminUserName>;

/** A session without its token. */
export const adminSession = named(
  "Session",
  v.object({
    id: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
    expiresAt: v.string(),
    ipAddress: nullable(v.string()),
    userAgent: nullable(v.string()),
    impersonatedBy: nullable(v.string()).describe("The operator, for an impersonation."),
  }),
);
/** @see {@link adminSession} */
export type AdminSession = Infer<typeof adminSession>;

/** A linked sign-in method (credential, OAuth provider) without its password hash or tokens. */
export const adminAccount = named(
  "Account",
  v.object({
    id: v.string(),
    providerId: v.string(),
    accountId: v.string(),
    scope: nullable(v.string()),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
);
/** @see {@link adminAccount} */
export type AdminAccount = Infer<typeof adminAccount>;

/** A registered passkey without its key material. */
export const adminPasskey = named(
  "Passkey",
  v.object({
    id: v.string(),
    name: nullable(v.string()),
    deviceType: v.string(),
    backedUp: v.boolean(),
    createdAt: v.string(),
  }),
);
/** @see {@link adminPasskey} */
export type AdminPasskey = Infer<typeof adminPasskey>;

/** An organization with its member count. */
export const adminOrganization = named(
  "Organization",
  v.object({
    id: v.string(),
    name: v.string(),
    slug: v.string(),
    logo: nullable(v.string()),
    metadata: nullable(v.record(v.any())).describe("better-auth's JSON metadata, parsed."),
    createdAt: v.string(),
    memberCount: v.number(),
  }),
);
/** @see {@link adminOrganization} */
export type AdminOrganization = Infer<typeof adminOrganization>;

/** A member of an organization. */
export const adminMember = named(
  "Member",
  v.object({
    id: v.string(),
    role: v.string(),
    createdAt: v.string(),
    user: v.object({ id: v.string(), email: v.string(), name: v.string() }),
  }),
);
/** @see {@link adminMember} */
export type AdminMember = Infer<typeof adminMember>;

/**
 * One organization a user belongs to, as their drawer lists it: the
 * organization's id, name and slug, and the membership (its id, role, since when).
 */
export const adminUserMembership = named(
  "UserMembership",
  v.object({
    id: v.string().describe("The membership's id (the `memberId` of the member routes)."),
    role: v.string(),
    createdAt: v.string(),
    organization: v.object({ id: v.string(), name: v.string(), slug: v.string() }),
  }),
);
/** @see {@link adminUserMembership} */
export type AdminUserMembership = Infer<typeof adminUserMembership>;

/** A pending (or answered) invitation to an organization. */
export const adminInvitation = named(
  "Invitation",
  v.object({
    id: v.string(),
    email: v.string(),
    role: nullable(v.string()),
    status: v.string(),
    expiresAt: v.string(),
    createdAt: nullable(v.string()),
    inviter: nullable(v.object({ id: v.string(), email: v.string() })),
  }),
);
/** @see {@link adminInvitation} */
export type AdminInvitation = Infer<typeof adminInvitation>;

/**
 * An API key as every answer shows it: never the key, never its hash. The
 * key itself is answered once, by the creation (`{ apiKey, key }`).
 */
export const adminApiKey = named(
  "ApiKey",
  v.object({
    id: v.string(),
    name: v.string(),
    prefix: v.string().describe("The key's visible start (`svc_k7Qx3mPa`), to tell keys apart."),
    ownerUserId: nullable(v.string()),
    ownerOrganizationId: nullable(v.string()),
    scopes: v
      .array(v.string())
      .describe(
        "`*`, a namespace (`messages`, nested ones included) or a procedure path (`messages:send`), each optionally `.readonly` (queries and streams only).",
      ),
    createdAt: v.string(),
    createdBy: v.string().describe("`operator:<admin token name>`, or `user:<id>` (self-service)."),
    expiresAt: nullable(v.string()).describe("`null`: it never expires."),
    lastUsedAt: nullable(v.string()).describe("Updated at most once a minute per isolate."),
    revokedAt: nullable(v.string()),
  }),
);
/** @see {@link adminApiKey} */
export type AdminApiKey = Infer<typeof adminApiKey>;

/** What an audit entry is about. */
export const auditTargetType = oneOf([
  "user",
  "session",
  "organization",
  "member",
  "invitation",
  "account",
  "passkey",
  "shard",
  "migration",
  "api-key",
  "cron",
]);
/** @see {@link auditTargetType} */
export type AuditTargetType = Infer<typeof auditTargetType>;

/** Who did what to whom, when: one line of the admin audit trail (`GET audit`). */
export const auditEntry = named(
  "AuditEntry",
  v.object({
    id: v.string(),
    at: v.string(),
    operator: v
      .string()
      .describe("The admin token's name, or the admin user behind an impersonation."),
    action: v.string().describe("One of `capabilities.auditActions`."),
    targetType: auditTargetType,
    targetId: v.string(),
    userId: nullable(v.string()).describe("The user concerned, when there is one."),
    user: nullable(v.object({ name: v.string(), email: v.string() })).describe(
      "The name and email of the user concerned, while that user exists (an id in `detail` reads as them).",
    ),
    outcome: oneOf(["ok", "error"]),
    detail: nullable(v.string()),
    reason: nullable(v.string()),
  }),
);
/** @see {@link auditEntry} */
export type AuditEntry = Infer<typeof auditEntry>;
