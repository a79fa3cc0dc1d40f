import type {
  AdminAccount,
  AdminInvitation,
  AdminMember,
  AdminOrganization,
  AdminPasskey,
  AdminSession,
  AdminUser,
  AdminUserMembership,
} from "./contract/index.ts";
/**
 * The JSON shapes of the admin API, each built field by field from a row: an
 * allow-list, so a column no one listed here (a password hash, a token, a
 * secret, a plugin's future field) can never reach a response.
 *
 * @see ../../../../docs/admin-api.md "Shapes"
 */

/** A row as D1 returns it, keyed by logical field names (see `SqlNames.select`). */
export type Row = Record<string, unknown>;

/**
 * A user. `banned` is the ban in force: a ban whose expiry has passed reads
 * as not banned (better-auth lifts it at the next sign-in), with its reason
 * and expiry cleared. `lastSignInAt` / `lastActiveAt` come from svc's
 * activity table (selected alongside; see `user-activity.ts`), `null` for a
 * user who never signed in.
 *
 * @example
 * ```ts
 * const user = toUser(row, Date.now());
 * ```
 */
export function toUser(row: Row, now: number): AdminUser {
  const banned = isBanInForce(row, now);
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name),
    emailVerified: bool(row.emailVerified),
    image: text(row.image),
    role: text(row.role),
    banned,
    banReason: banned ? text(row.banReason) : null,
    banExpires: banned ? iso(row.banExpires) : null,
    username: text(row.username),
    displayUsername: text(row.displayUsername),
    twoFactorEnabled: bool(row.twoFactorEnabled),
    phoneNumber: text(row.phoneNumber),
    phoneNumberVerified: bool(row.phoneNumberVerified),
    isAnonymous: bool(row.isAnonymous),
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
    lastSignInAt: iso(row.lastSignInAt),
    lastActiveAt: iso(row.lastActiveAt),
  };
}

/**
 * True when the row's ban is in force at `now` (banned, and not past its
 * expiry): the one meaning of "banned" for answers, filters and the 409s.
 *
 * @example
 * ```ts
 * if (isBanInForce(row, Date.now())) throw new SvcError("CONFLICT", "…already banned…");
 * ```
 */
export function isBanInForce(row: Row, now: number): boolean {
  if (!bool(row.banned)) return false;
  const expires = iso(row.banExpires);
  return expires === null || Date.parse(expires) > now;
}

/**
 * Session columns the admin surface selects (never `token`).
 *
 * @example
 * ```ts
 * names.select(model, SESSION_FIELDS, "t");
 * ```
 */
export const SESSION_FIELDS = [
  "id",
  "createdAt",
  "updatedAt",
  "expiresAt",
  "ipAddress",
  "userAgent",
  "impersonatedBy",
] as const;

/**
 * Prefix of `session.impersonatedBy` for impersonations started through this
 * API, so they are told apart from better-auth's own (which store the admin
 * user's id there).
 *
 * @example
 * ```ts
 * `${OPERATOR_PREFIX}alice`; // "svc-operator:alice"
 * ```
 */
export const OPERATOR_PREFIX = "svc-operator:";

/**
 * A session, without its token. `impersonatedBy` is the operator's name for
 * an impersonation started here, the admin user's id for one started through
 * better-auth's own `impersonateUser`, `null` otherwise.
 *
 * @example
 * ```ts
 * sessions.map(toSession);
 * ```
 */
export function toSession(row: Row): AdminSession {
  const by = text(row.impersonatedBy);
  return {
    id: String(row.id),
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
    expiresAt: isoRequired(row.expiresAt),
    ipAddress: text(row.ipAddress) || null,
    userAgent: text(row.userAgent) || null,
    impersonatedBy: by?.startsWith(OPERATOR_PREFIX) ? by.slice(OPERATOR_PREFIX.length) : by,
  };
}

/**
 * Account columns the admin surface selects (never `password` or tokens).
 *
 * @example
 * ```ts
 * names.select(model, ACCOUNT_FIELDS, "t");
 * ```
 */
export const ACCOUNT_FIELDS = [
  "id",
  "providerId",
  "accountId",
  "scope",
  "createdAt",
  "updatedAt",
] as const;

/**
 * A linked account (credential or OAuth provider), without its password hash
 * or tokens.
 *
 * @example
 * ```ts
 * accounts.map(toAccount);
 * ```
 */
export function toAccount(row: Row): AdminAccount {
  return {
    id: String(row.id),
    providerId: String(row.providerId),
    accountId: String(row.accountId),
    scope: text(row.scope),
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  };
}

/**
 * Passkey columns the admin surface selects (never `publicKey` or `credentialID`).
 *
 * @example
 * ```ts
 * names.select(model, PASSKEY_FIELDS, "t");
 * ```
 */
export const PASSKEY_FIELDS = ["id", "name", "deviceType", "backedUp", "createdAt"] as const;

/**
 * A passkey, without its key material. `createdAt` is optional in the
 * passkey plugin's schema; a row without one reads as the epoch.
 *
 * @example
 * ```ts
 * passkeys.map(toPasskey);
 * ```
 */
export function toPasskey(row: Row): AdminPasskey {
  return {
    id: String(row.id),
    name: text(row.name),
    deviceType: String(row.deviceType),
    backedUp: bool(row.backedUp),
    createdAt: iso(row.createdAt) ?? new Date(0).toISOString(),
  };
}

/**
 * Organization columns the admin surface selects (not `metadata`).
 *
 * @example
 * ```ts
 * names.select(model, ORGANIZATION_FIELDS, "t");
 * ```
 */
export const ORGANIZATION_FIELDS = ["id", "name", "slug", "logo", "metadata", "createdAt"] as const;

/**
 * An organization with its member count (`memberCount` selected alongside).
 *
 * @example
 * ```ts
 * rows.map(toOrganization);
 * ```
 */
export function toOrganization(row: Row): AdminOrganization {
  return {
    id: String(row.id),
    name: String(row.name),
    slug: String(row.slug),
    logo: text(row.logo),
    metadata: jsonObject(row.metadata),
    createdAt: isoRequired(row.createdAt),
    memberCount: Number(row.memberCount ?? 0),
  };
}

/**
 * A member with the user's id, email and name (selected as `user_*`).
 *
 * @example
 * ```ts
 * rows.map(toMember);
 * ```
 */
export function toMember(row: Row): AdminMember {
  return {
    id: String(row.id),
    role: String(row.role),
    createdAt: isoRequired(row.createdAt),
    user: { id: String(row.user_id), email: String(row.user_email), name: String(row.user_name) },
  };
}

/**
 * A user's membership with its organization's id, name and slug (selected as
 * `organization_*`): never the organization's metadata.
 *
 * @example
 * ```ts
 * rows.map(toUserMembership);
 * ```
 */
export function toUserMembership(row: Row): AdminUserMembership {
  return {
    id: String(row.id),
    role: String(row.role),
    createdAt: isoRequired(row.createdAt),
    organization: {
      id: String(row.organization_id),
      name: String(row.organization_name),
      slug: String(row.organization_slug),
    },
  };
}

/**
 * An invitation with its inviter's id and email (selected as `inviter_*`;
 * `null` once the inviter is gone).
 *
 * @example
 * ```ts
 * rows.map(toInvitation);
 * ```
 */
export function toInvitation(row: Row): AdminInvitation {
  return {
    id: String(row.id),
    email: String(row.email),
    role: text(row.role),
    status: String(row.status),
    expiresAt: isoRequired(row.expiresAt),
    createdAt: iso(row.createdAt),
    inviter:
      row.inviter_id === null || row.inviter_id === undefined
        ? null
        : { id: String(row.inviter_id), email: String(row.inviter_email) },
  };
}

/** Stored JSON text (or an object) as a plain object; `null` when unset, malformed or not an object. */
function jsonObject(value: unknown): Record<string, unknown> | null {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}

/** A stored timestamp (ISO string, epoch milliseconds or `Date`) as ISO-8601, or `null`. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  const date =
    value instanceof Date ? value : new Date(typeof value === "number" ? value : String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function isoRequired(value: unknown): string {
  return iso(value) ?? new Date(0).toISOString();
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "true";
}
