/**
 * What each audited admin action is about, from its path parameters: the
 * audit record's target before the handler knows more (a created user's id
 * replaces it). Beside the route declarations, so the server's audit trail
 * and the dashboard's preview record the same targets.
 */
import type { AdminAuthRoutes } from "./routes.ts";
import type { AuditTargetType } from "./shapes.ts";

/** The target of an action: the thing acted on, and the user it belongs to. */
export interface AuditTarget {
  targetType: AuditTargetType;
  targetId: string;
  /** The user concerned (the target itself, or the owner of a session / account / passkey). */
  userId: string | null;
}

type Params = Readonly<Record<string, string>>;
const newUser = (): AuditTarget => ({ targetType: "user", targetId: "", userId: null });
const user = (params: Params): AuditTarget => ({
  targetType: "user",
  targetId: params.id ?? "",
  userId: params.id ?? null,
});
const organization = (params: Params): AuditTarget => ({
  targetType: "organization",
  targetId: params.id ?? "",
  userId: null,
});
const member = (params: Params): AuditTarget => ({
  targetType: "member",
  targetId: params.memberId ?? "",
  userId: null,
});
const invitation = (params: Params): AuditTarget => ({
  targetType: "invitation",
  targetId: params.invitationId ?? "",
  userId: null,
});
const owned =
  (targetType: AuditTarget["targetType"], param: string) =>
  (params: Params): AuditTarget => ({
    targetType,
    targetId: params[param] ?? "",
    userId: params.id ?? null,
  });

/** The routes that declare an audit action. */
export type AuditedRoute = {
  [Name in keyof AdminAuthRoutes]: AdminAuthRoutes[Name] extends { audit: string } ? Name : never;
}[keyof AdminAuthRoutes];

/**
 * What each action is about, from its path parameters: the audit record's
 * target before the handler knows more (a created user's id replaces it).
 *
 * @example
 * ```ts
 * AUDIT_TARGETS.banUser({ id: "u1" }); // { targetType: "user", targetId: "u1", userId: "u1" }
 * ```
 */
export const AUDIT_TARGETS: Readonly<Record<AuditedRoute, (params: Params) => AuditTarget>> = {
  createUser: newUser,
  exportUsers: newUser,
  importUsers: newUser,
  updateUser: user,
  deleteUser: user,
  setRole: user,
  banUser: user,
  unbanUser: user,
  setPassword: user,
  sendSignInLink: user,
  impersonate: user,
  impersonationLink: user,
  revokeSessions: user,
  revokeSession: owned("session", "sessionId"),
  disableTwoFactor: user,
  revokePasskey: owned("passkey", "passkeyId"),
  unlinkAccount: owned("account", "accountId"),
  createOrganization: () => ({ targetType: "organization", targetId: "", userId: null }),
  updateOrganization: organization,
  deleteOrganization: organization,
  addMember: organization,
  removeMember: member,
  setMemberRole: member,
  invite: organization,
  resendInvitation: invitation,
  cancelInvitation: invitation,
  // The key's id and owner are known once the handler ran; it sets them.
  createApiKey: () => ({ targetType: "api-key", targetId: "", userId: null }),
  revokeApiKey: (params) => ({ targetType: "api-key", targetId: params.id ?? "", userId: null }),
};
