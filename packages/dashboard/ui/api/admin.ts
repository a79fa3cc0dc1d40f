import { type AdminClient, pathOf, type QueryParams } from "./client.ts";
import type {
  AuditEntry,
  Capabilities,
  CreatedUser,
  Impersonation,
  ImpersonationLink,
  ImportReport,
  Invitation,
  Member,
  Organization,
  OrganizationPage,
  Overview,
  SignInLinkKind,
  SignInLinkOutcome,
  User,
  UserDetail,
  UserPage,
  UserQuery,
} from "./types.ts";

/** Query of `GET audit`: by target id and/or action, newest first. */
export type AuditQuery = {
  target?: string;
  action?: string;
  limit?: number;
  cursor?: string;
};

/** Body of `POST users`. */
export interface NewUser {
  email: string;
  name: string;
  password?: string;
  role?: string;
  /** A sign-in link to email once the user exists (one of `capabilities.signInLinks`). */
  signInLink?: SignInLinkKind;
}

/** Body of `POST organizations`. */
export interface NewOrganization {
  name: string;
  slug: string;
  ownerId: string;
  logo?: string;
  metadata?: Record<string, unknown>;
}

/** Body of `PATCH organizations/:id`: the fields to change, `null` clearing logo or metadata. */
export interface OrganizationChanges {
  name?: string;
  slug?: string;
  logo?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Query of `GET users/export`: the users list's filters and the file's format. */
export interface ExportQuery {
  format: "csv" | "json";
  search?: string;
  role?: string;
  banned?: boolean;
  /** Adds each user's password hash (audited), for moving users to another database. */
  passwordHashes?: boolean;
}

/** One request's worth of users to import: JSON records, or CSV text with its header row. */
export type ImportChunk = { records: object[] } | { csv: string };

const user = (id: string, ...rest: string[]) => `auth/${pathOf("users", id, ...rest)}`;
const org = (id: string, ...rest: string[]) => `auth/${pathOf("organizations", id, ...rest)}`;

/**
 * Every admin route the dashboard calls, one typed function each, so screens
 * never spell a URL. Mirrors the route table of `docs/admin-api.md`.
 */
export function adminApi(client: AdminClient) {
  const get = <T>(path: string, query?: QueryParams, signal?: AbortSignal) =>
    client.request<T>("GET", path, { query, signal });
  const post = <T>(path: string, body: object = {}) => client.request<T>("POST", path, { body });
  const patch = <T>(path: string, body: object) => client.request<T>("PATCH", path, { body });
  const del = <T>(path: string) => client.request<T>("DELETE", path);
  return {
    capabilities: (signal?: AbortSignal) =>
      get<Capabilities>("auth/capabilities", undefined, signal),

    overview: (days: number, signal?: AbortSignal) =>
      get<Overview>("auth/overview", { days }, signal),

    listUsers: (query: UserQuery, signal?: AbortSignal) =>
      get<UserPage>("auth/users", query, signal),
    createUser: (body: NewUser) => post<CreatedUser>("auth/users", body),
    getUser: (id: string, signal?: AbortSignal) => get<UserDetail>(user(id), undefined, signal),
    updateUser: (id: string, changes: Record<string, unknown>) =>
      patch<{ user: User; profile: Record<string, unknown> }>(user(id), changes),
    exportUsers: (query: ExportQuery, signal?: AbortSignal) =>
      client.response("GET", "auth/users/export", { query: { ...query }, signal }),
    importUsers: (chunk: ImportChunk, dryRun: boolean) =>
      client.request<ImportReport>("POST", "auth/users/import", {
        query: { dryRun: dryRun ? true : undefined },
        ...("csv" in chunk
          ? { text: { type: "text/csv", content: chunk.csv } }
          : { body: chunk.records }),
      }),
    deleteUser: (id: string) => del<{ deleted: true }>(user(id)),
    setRole: (id: string, role: string) => post<{ user: User }>(user(id, "role"), { role }),
    ban: (id: string, body: { reason?: string; expiresAt?: string }) =>
      post<{ user: User }>(user(id, "ban"), body),
    unban: (id: string) => post<{ user: User }>(user(id, "unban")),
    setPassword: (id: string, password: string) =>
      post<{ updated: true; createdCredentialAccount: boolean }>(user(id, "password"), {
        password,
      }),
    sendSignInLink: (id: string, kind: SignInLinkKind) =>
      post<{ signInLink: SignInLinkOutcome }>(user(id, "sign-in-link"), { kind }),
    impersonate: (id: string, body: { reason?: string; durationSeconds?: number }) =>
      post<Impersonation>(user(id, "impersonate"), body),
    impersonationLink: (id: string, body: { reason?: string; durationSeconds?: number }) =>
      post<ImpersonationLink>(user(id, "impersonation-link"), body),
    revokeSessions: (id: string) => del<{ revoked: number }>(user(id, "sessions")),
    revokeSession: (id: string, sessionId: string) =>
      del<{ revoked: 1 }>(user(id, "sessions", sessionId)),
    disableTwoFactor: (id: string) => post<{ user: User }>(user(id, "two-factor", "disable")),
    revokePasskey: (id: string, passkeyId: string) =>
      del<{ deleted: true }>(user(id, "passkeys", passkeyId)),
    unlinkAccount: (id: string, accountId: string) =>
      del<{ deleted: true }>(user(id, "accounts", accountId)),

    listOrganizations: (
      query: { search?: string; limit?: number; cursor?: string },
      signal?: AbortSignal,
    ) => get<OrganizationPage>("auth/organizations", query, signal),
    getOrganization: (id: string, signal?: AbortSignal) =>
      get<{ organization: Organization }>(org(id), undefined, signal),
    createOrganization: (body: NewOrganization) =>
      post<{ organization: Organization }>("auth/organizations", body),
    updateOrganization: (id: string, changes: OrganizationChanges) =>
      patch<{ organization: Organization }>(org(id), changes),
    deleteOrganization: (id: string) => del<{ deleted: true; members: number }>(org(id)),
    addMember: (id: string, body: { email: string; role: string }) =>
      post<{ member: Member }>(org(id, "members"), body),
    setMemberRole: (id: string, memberId: string, role: string) =>
      post<{ member: Member }>(org(id, "members", memberId, "role"), { role }),
    removeMember: (id: string, memberId: string) =>
      del<{ deleted: true }>(org(id, "members", memberId)),
    invite: (id: string, body: { email: string; role: string }) =>
      post<{ invitation: Invitation; emailed: boolean }>(org(id, "invitations"), body),
    resendInvitation: (id: string, invitationId: string) =>
      post<{ invitation: Invitation; emailed: boolean }>(
        org(id, "invitations", invitationId, "resend"),
      ),
    cancelInvitation: (id: string, invitationId: string) =>
      del<{ invitation: Invitation }>(org(id, "invitations", invitationId)),
    listMembers: (id: string, cursor?: string, signal?: AbortSignal) =>
      get<{ members: Member[]; nextCursor: string | null }>(org(id, "members"), { cursor }, signal),
    listInvitations: (id: string, cursor?: string, signal?: AbortSignal) =>
      get<{ invitations: Invitation[]; nextCursor: string | null }>(
        org(id, "invitations"),
        { cursor },
        signal,
      ),

    listAudit: (query: AuditQuery, signal?: AbortSignal) =>
      get<{ entries: AuditEntry[]; nextCursor: string | null }>("auth/audit", query, signal),

    openApi: (signal?: AbortSignal) => get<unknown>("openapi", undefined, signal),
  };
}

/** The typed admin API the screens use. */
export type AdminApi = ReturnType<typeof adminApi>;
