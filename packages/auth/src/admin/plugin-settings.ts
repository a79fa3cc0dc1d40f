import type { BetterAuthPlugin } from "better-auth";

/** The admin plugin's role configuration, defaults filled in as the plugin does. */
export interface RoleSettings {
  /** Roles that exist (`roles` option keys; `user` and `admin` by default). */
  assignable: string[];
  /** Roles that make a user an admin (`adminRoles`, default `["admin"]`). */
  adminRoles: string[];
  /** Role of a user whose `role` is empty (`defaultRole`, default `"user"`). */
  defaultRole: string;
  /** Users that are admins whatever their role (`adminUserIds`). */
  adminUserIds: string[];
}

/**
 * Reads the admin plugin's role options the way better-auth's admin plugin
 * reads them, so "is an admin" and "is a valid role" mean the same here as in
 * its own endpoints.
 *
 * @example
 * ```ts
 * roleSettingsOf(admin({ adminRoles: ["owner"], roles })).adminRoles; // ["owner"]
 * ```
 */
export function roleSettingsOf(plugin: BetterAuthPlugin): RoleSettings {
  const options = record(plugin.options);
  const roles = record(options.roles);
  const assignable = Object.keys(roles).length > 0 ? Object.keys(roles) : ["user", "admin"];
  return {
    assignable,
    adminRoles: roleList(options.adminRoles, ["admin"]),
    defaultRole: typeof options.defaultRole === "string" ? options.defaultRole : "user",
    adminUserIds: Array.isArray(options.adminUserIds)
      ? options.adminUserIds.filter((id): id is string => typeof id === "string")
      : [],
  };
}

/**
 * The organization role of an organization's creator (`creatorRole`,
 * default `"owner"`): the role whose last holder may not be removed.
 *
 * @example
 * ```ts
 * ownerRoleOf(organization()); // "owner"
 * ```
 */
export function ownerRoleOf(plugin: BetterAuthPlugin): string {
  const creatorRole = record(plugin.options).creatorRole;
  return typeof creatorRole === "string" && creatorRole !== "" ? creatorRole : "owner";
}

/** The invitation email hook of the organization plugin (`sendInvitationEmail`), as it calls it. */
export type SendInvitationEmail = (data: {
  id: string;
  role: string;
  email: string;
  organization: Record<string, unknown>;
  inviter: Record<string, unknown> & { user: Record<string, unknown> };
  invitation: Record<string, unknown>;
}) => Promise<void> | void;

/** The organization plugin's options the admin surface honours, defaults filled in as the plugin does. */
export interface OrganizationSettings {
  /** Roles any organization knows: better-auth's `owner`, `admin`, `member` and the `roles` option's keys. */
  roles: string[];
  /** `dynamicAccessControl.enabled`: organizations may define further roles in `organizationRole`. */
  dynamicRoles: boolean;
  /** `invitationExpiresIn`, in seconds (default 48 hours). */
  invitationExpiresInSeconds: number;
  /** `sendInvitationEmail`, when the app set one. */
  sendInvitationEmail: SendInvitationEmail | null;
}

const DEFAULT_ORGANIZATION_ROLES = ["owner", "admin", "member"];
const DEFAULT_INVITATION_SECONDS = 48 * 3600;

/**
 * Reads the organization plugin's options the way its own invitation
 * endpoint does, so a role the admin API accepts is one better-auth accepts,
 * and an invitation it sends expires and is mailed as the app configured.
 *
 * @example
 * ```ts
 * organizationSettingsOf(organization({ roles: { owner, admin, member, billing } })).roles;
 * // ["owner", "admin", "member", "billing"]
 * ```
 */
export function organizationSettingsOf(plugin: BetterAuthPlugin): OrganizationSettings {
  const options = record(plugin.options);
  const seconds = options.invitationExpiresIn;
  const send = options.sendInvitationEmail;
  return {
    roles: [...new Set([...DEFAULT_ORGANIZATION_ROLES, ...Object.keys(record(options.roles))])],
    dynamicRoles: record(options.dynamicAccessControl).enabled === true,
    invitationExpiresInSeconds:
      typeof seconds === "number" && seconds > 0 ? seconds : DEFAULT_INVITATION_SECONDS,
    sendInvitationEmail: typeof send === "function" ? (send as SendInvitationEmail) : null,
  };
}

/**
 * Splits a better-auth role value (`"admin,support"` or an array) into roles:
 * better-auth stores several roles as one comma-separated string.
 *
 * @example
 * ```ts
 * splitRoles("admin, support"); // ["admin", "support"]
 * ```
 */
export function splitRoles(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return parts
    .filter((part): part is string => typeof part === "string")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function roleList(value: unknown, fallback: string[]): string[] {
  const roles = splitRoles(value);
  return roles.length > 0 ? roles : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? { ...value } : {};
}
