import { type AdminClient, pathOf, type QueryParams } from "./client.ts";
import type {
  AuditEntry,
  Capabilities,
  Impersonation,
  Invitation,
  Member,
  Organization,
  OrganizationPage,
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
}

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
  const del = <T>(path: string) => client.request<T>("DELETE", path);
  return {
    capabilities: (signal?: AbortSignal) =>
      get<Capabilities>("auth/capabilities", undefined, signal),

    listUsers: (query: UserQuery, signal?: AbortSignal) =>
      get<UserPage>("auth/users", query, signal),
    createUser: (body: NewUser) => post<{ user: User }>("auth/users", body),
    getUser: (id: string, signal?: AbortSignal) => get<UserDetail>(user(id), undefined, signal),
    deleteUser: (id: string) => del<{ deleted: true }>(user(id)),
    setRole: (id: string, role: string) => post<{ user: User }>(user(id, "role"), { role }),
    ban: (id: string, body: { reason?: string; expiresAt?: string }) =>
      post<{ user: User }>(user(id, "ban"), body),
    unban: (id: string) => post<{ user: User }>(user(id, "unban")),
    setPassword: (id: string, password: string) =>
      post<{ updated: true; createdCredentialAccount: boolean }>(user(id, "password"), {
        password,
      }),
    impersonate: (id: string, body: { reason?: string; durationSeconds?: number }) =>
      post<Impersonation>(user(id, "impersonate"), body),
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
