/**
 * The shapes of the admin API (`/_svc/admin/auth/*`), declared once: the
 * server builds its answers as these types, and the dashboard reads them
 * through `import type` from `@svc/auth/admin-contract`. Types only, with no
 * imports, so the dashboard's browser build never pulls server code in.
 * Timestamps are ISO-8601 strings; nothing here holds a secret except
 * {@link Impersonation}'s token, answered once.
 *
 * @see ../../../../docs/admin-api.md "Shapes"
 * @packageDocumentation
 */

/** Which surfaces apply (`GET capabilities`): the dashboard hides every control whose flag is off. */
export interface Capabilities {
  /** admin plugin: role, ban/unban, set password, impersonate, create, delete. */
  userActions: boolean;
  /** organization plugin: organizations, members, invitations. */
  organizations: boolean;
  /** twoFactor plugin: "Disable two-factor". */
  twoFactor: boolean;
  /** passkey plugin: list / revoke passkeys. */
  passkeys: boolean;
  /** Always: linked accounts (list, unlink). */
  linkedAccounts: true;
  /** Always: sessions (list, revoke). */
  sessions: true;
  /** username plugin: searchable, shown in user fields. */
  username: boolean;
  /** Roles an operator may assign (empty without the admin plugin). */
  roles: string[];
  /** Ids of the enabled better-auth plugins (svc's own plugins left out). */
  plugins: string[];
  /** Every action the audit trail records (`AUDIT_ACTIONS`), so a filter can offer them instead of free text. */
  auditActions: string[];
  /** better-auth's `minPasswordLength` / `maxPasswordLength`, so a form can refuse a password before sending it. */
  passwordLength: { min: number; max: number };
  /** User fields `PATCH users/:id` takes (core, plugins', the app's `additionalFields`); empty without `userActions`. */
  userFields: EditableUserField[];
  /**
   * Sign-in links this app can email (`POST users` `signInLink`, `POST users/:id/sign-in-link`):
   * `magic-link` with the magic link plugin, `password-setup` with email + password and
   * `emailAndPassword.sendResetPassword`. Empty when it can send none.
   */
  signInLinks: SignInLinkKind[];
}

/**
 * A sign-in link the admin API can have better-auth email to a user, through the app's own sender:
 * `magic-link` (the magic link plugin's `sendMagicLink`) signs them in;
 * `password-setup` (`emailAndPassword.sendResetPassword`) lets them choose a password.
 */
export type SignInLinkKind = "magic-link" | "password-setup";

/**
 * What became of a sign-in link: `sent` when the app's sender accepted it; otherwise
 * `error` says why (the user still exists; send again with `POST users/:id/sign-in-link`).
 */
export type SignInLinkOutcome =
  | { kind: SignInLinkKind; sentTo: string; sent: true }
  | { kind: SignInLinkKind; sentTo: string; sent: false; error: { code: string; message: string } };

/** `POST users` answer: the user, and the sign-in link when one was asked for. */
export interface CreatedUser {
  user: AdminUser;
  signInLink?: SignInLinkOutcome;
}

/** One user field an operator may edit, from better-auth's schema: what the dashboard's form shows. */
export interface EditableUserField {
  name: string;
  /** better-auth's field type; `enum` when the schema lists the allowed values (`options`). */
  type: "string" | "number" | "boolean" | "date" | "json" | "string[]" | "number[]" | "enum";
  /** `null` / empty is refused. */
  required: boolean;
  /** No two users may share a value (`409` otherwise). */
  unique: boolean;
  options?: string[];
  format?: "email" | "url";
  minLength?: number;
  maxLength?: number;
}

/** A user as the admin API answers it: allow-listed fields only, never a password or token. */
export interface AdminUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image: string | null;
  role: string | null;
  /** Whether a ban is in force now (an expired ban reads as not banned). */
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  username: string | null;
  displayUsername: string | null;
  twoFactorEnabled: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  isAnonymous: boolean;
  createdAt: string;
  updatedAt: string;
  /** When the user last signed in (their newest session began; impersonations excluded); `null`: never. */
  lastSignInAt: string | null;
  /** When the user was last active (a sign-in or session refresh, about daily); `null`: never. */
  lastActiveAt: string | null;
}

/** A session without its token. */
export interface AdminSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The operator's name for an impersonation started here, the admin's user id for better-auth's own, else `null`. */
  impersonatedBy: string | null;
}

/** A linked sign-in method (credential, OAuth provider) without its password hash or tokens. */
export interface AdminAccount {
  id: string;
  providerId: string;
  accountId: string;
  scope: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A registered passkey without its key material. */
export interface AdminPasskey {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
}

/** An organization with its member count. */
export interface AdminOrganization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** The organization's `metadata` (better-auth stores it as JSON text); `null` when unset or not an object. */
  metadata: Record<string, unknown> | null;
  createdAt: string;
  memberCount: number;
}

/** A member of an organization. */
export interface AdminMember {
  id: string;
  role: string;
  createdAt: string;
  user: { id: string; email: string; name: string };
}

/** A pending (or answered) invitation to an organization. */
export interface AdminInvitation {
  id: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: string;
  createdAt: string | null;
  inviter: { id: string; email: string } | null;
}

/** What an audit entry is about. */
export type AuditTargetType =
  | "user"
  | "session"
  | "organization"
  | "member"
  | "invitation"
  | "account"
  | "passkey"
  | "shard";

/** Who did what to whom, when: one line of the admin audit trail (`GET audit`). */
export interface AuditEntry {
  id: string;
  at: string;
  /** The admin token's name, or the admin user behind an impersonation. */
  operator: string;
  /** One of `AUDIT_ACTIONS` (`user.ban`, `impersonation.refused`, …). */
  action: string;
  targetType: AuditTargetType;
  targetId: string;
  /** The user concerned, when there is one. */
  userId: string | null;
  outcome: "ok" | "error";
  detail: string | null;
  reason: string | null;
}

/** `GET users` answer: one page, the total matching count and the next page's cursor. */
export interface UserPage {
  users: AdminUser[];
  total: number;
  nextCursor: string | null;
}

/** `GET users/:id` answer. `passkeys` is present only with the passkey plugin. */
export interface UserDetail {
  user: AdminUser;
  /** The current value of every editable field (`capabilities.userFields`), for the edit form. */
  profile: Record<string, unknown>;
  accounts: AdminAccount[];
  sessions: AdminSession[];
  passkeys?: AdminPasskey[];
}

/** `GET organizations` answer; `enabled: false` is the plugin-off state, not an error. */
export type OrganizationPage =
  | { enabled: true; organizations: AdminOrganization[]; total: number; nextCursor: string | null }
  | { enabled: false; organizations: []; total: 0; nextCursor: null };

/** `POST users/:id/impersonate` answer: the only token the admin API ever returns. */
export interface Impersonation {
  token: string;
  sessionId: string;
  userId: string;
  expiresAt: string;
  /** A ready `Cookie` header value carrying the same token, for apps without `bearer()`. */
  cookie: string;
}

/**
 * `POST users/:id/impersonation-link` answer: a one-time link on the app's
 * origin that signs the browser opening it in as the user (a bounded
 * impersonation session), usable once until `expiresAt`.
 */
export interface ImpersonationLink {
  url: string;
  expiresAt: string;
}

/** Sort fields `GET users` accepts. */
export type UserSort = "created" | "email" | "name" | "lastSignIn" | "lastActive";

/** Query of `GET users`; absent fields are left out of the URL. (A type, so it fits string-keyed records.) */
export type UserQuery = {
  search?: string;
  role?: string;
  banned?: boolean;
  sort?: UserSort;
  order?: "asc" | "desc";
  limit?: number;
  cursor?: string;
};

/** `GET overview` answer: totals, sign-ups per UTC day (oldest first, zero days included) and active users. */
export interface AdminOverview {
  totals: {
    users: number;
    emailVerified: number;
    /** Users banned now; `null` without the admin plugin. */
    banned: number | null;
    /** `null` without the organization surface. */
    organizations: number | null;
  };
  signUps: { day: string; count: number }[];
  /** Distinct users whose session was used within each window (a lower bound: see docs). */
  activeUsers: { last24Hours: number; last7Days: number; last30Days: number };
  generatedAt: string;
}

/** `POST users/import` answer: counts, then one result per row of the request (in order). */
export interface AdminImportReport {
  dryRun: boolean;
  created: number;
  valid: number;
  skipped: number;
  invalid: number;
  results: {
    /** Position in the request, from 0. */
    index: number;
    id: string | null;
    email: string | null;
    /** `created`; `valid` on a dry run; `skipped` when the user exists; `invalid` with `errors`. */
    status: "created" | "valid" | "skipped" | "invalid";
    errors?: { field: string; message: string }[];
  }[];
}
