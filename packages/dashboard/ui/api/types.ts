/**
 * The shapes of the admin API, transcribed from `docs/admin-api.md` (the
 * contract between `createAuthAdmin` and this dashboard). Timestamps are
 * ISO-8601 strings; nothing here ever holds a secret except the
 * {@link Impersonation} token, which the UI shows once and forgets.
 */

/** Which surfaces apply: the dashboard hides every control whose flag is off. */
export interface Capabilities {
  /** Admin plugin: role, ban/unban, set password, impersonate, create, delete. */
  userActions: boolean;
  organizations: boolean;
  twoFactor: boolean;
  passkeys: boolean;
  linkedAccounts: true;
  sessions: true;
  username: boolean;
  /** Roles an operator may assign. */
  roles: string[];
  /** Ids of the enabled better-auth plugins. */
  plugins: string[];
}

/** A user as the admin surface lists it (allow-listed fields only). */
export interface User {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image: string | null;
  role: string | null;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  username: string | null;
  twoFactorEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A session without its token. */
export interface Session {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** Operator name when the session is an impersonation. */
  impersonatedBy: string | null;
}

/** A linked sign-in method (credential, OAuth provider) without its tokens. */
export interface Account {
  id: string;
  providerId: string;
  accountId: string;
  scope: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A registered passkey without its key material. */
export interface Passkey {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
}

/** An organization with its member count. */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  createdAt: string;
  memberCount: number;
}

/** A member of an organization. */
export interface Member {
  id: string;
  role: string;
  createdAt: string;
  user: { id: string; email: string; name: string };
}

/** A pending (or answered) invitation to an organization. */
export interface Invitation {
  id: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: string;
  inviter: { id: string; email: string } | null;
}

/** Who did what to whom, when: one line of the admin audit trail. */
export interface AuditEntry {
  id: string;
  at: string;
  operator: string;
  action: string;
  targetType: "user" | "session" | "organization" | "account" | "passkey";
  targetId: string;
  outcome: "ok" | "error";
  detail: string | null;
  reason: string | null;
}

/** `GET users` answer: one page, the total matching count and the next page's cursor. */
export interface UserPage {
  users: User[];
  total: number;
  nextCursor: string | null;
}

/** `GET users/:id` answer. `passkeys` is present only with the passkey plugin. */
export interface UserDetail {
  user: User;
  accounts: Account[];
  sessions: Session[];
  passkeys?: Passkey[];
}

/** `GET organizations` answer; `enabled: false` is the plugin-off state, not an error. */
export type OrganizationPage =
  | { enabled: true; organizations: Organization[]; total: number; nextCursor: string | null }
  | { enabled: false; organizations: []; total: 0; nextCursor: null };

/** `POST users/:id/impersonate` answer: the only token the admin surface ever returns. */
export interface Impersonation {
  token: string;
  sessionId: string;
  userId: string;
  expiresAt: string;
}

/** Sort fields `GET users` accepts. */
export type UserSort = "created" | "email" | "name";

/** Query of `GET users`; absent fields are left out of the URL. */
export type UserQuery = {
  search?: string;
  role?: string;
  banned?: boolean;
  sort?: UserSort;
  order?: "asc" | "desc";
  limit?: number;
  cursor?: string;
};
