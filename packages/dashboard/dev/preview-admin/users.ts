/**
 * DEV PREVIEW ONLY: the user routes of the fake admin API, over the
 * in-memory data. Routing, query and body checks, the handlers' input types
 * and the audit trail's targets come from the route declarations
 * (`serveRoutes`, `AUDIT_TARGETS`), so this file holds only what the data does.
 */

import {
  type AdminAuthRoutes,
  adminAccount,
  adminSession,
  adminUser,
} from "@svc/auth/admin-contract";
import { SvcError } from "@svc/server";
import { fakeOf, type RouteHandlers } from "@svc/server/routes";
import type { AuditEntry, Capabilities, User } from "../../ui/api/types.ts";
import type { PreviewData } from "./seed.ts";

/** What every preview handler gets: the data, the capabilities it shows and the operator. */
export interface PreviewContext {
  data: PreviewData;
  capabilities: Capabilities;
  operator: string;
}

/** The handlers of the preview, typed from the declarations; an action's `audit` is its trail entry. */
export type PreviewHandlers = RouteHandlers<AdminAuthRoutes, PreviewContext, AuditEntry>;

const now = () => new Date().toISOString();
const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

/** The user with this id, or `404`. */
export function userOf(data: PreviewData, id: string): User {
  const user = data.users.find((candidate) => candidate.id === id);
  if (user === undefined) throw new SvcError("NOT_FOUND", "No user with this id.");
  return user;
}

/** One page of a list by offset cursor: what the real keyset cursor looks like from outside. */
export function page<T>(items: T[], query: { limit?: number; cursor?: string }) {
  const offset = Number(query.cursor ?? "0") || 0;
  const next = offset + (query.limit ?? 25);
  return {
    items: items.slice(offset, next),
    nextCursor: next < items.length ? String(next) : null,
  };
}

const sortKey: Record<string, (user: User) => string> = {
  email: (user) => user.email,
  name: (user) => user.name,
  lastSignIn: (user) => user.lastSignInAt ?? "",
  lastActive: (user) => user.lastActiveAt ?? "",
  created: (user) => user.createdAt,
};

/** `GET users/:id`'s answer. */
function userDetail(ctx: PreviewContext, id: string) {
  const user = userOf(ctx.data, id);
  return {
    user,
    profile: Object.fromEntries(
      ctx.capabilities.userFields.map((field) => [field.name, user[field.name as keyof User]]),
    ),
    accounts: ctx.data.accounts.get(id) ?? [],
    sessions: ctx.data.sessions.get(id) ?? [],
    passkeys: ctx.data.passkeys.get(id) ?? [],
  };
}

/** Changes a user's fields; answers `{ user }`. */
function changeUser(ctx: PreviewContext, id: string, changes: Partial<User>) {
  const user = userOf(ctx.data, id);
  Object.assign(user, changes, { updatedAt: now() });
  return { user };
}

/** A fake session and token for an impersonation. */
function impersonate(ctx: PreviewContext, id: string, durationSeconds = 3600) {
  userOf(ctx.data, id);
  const expiresAt = new Date(Date.now() + durationSeconds * 1000).toISOString();
  const session = fakeOf(adminSession, {
    id: newId("ses"),
    expiresAt,
    impersonatedBy: ctx.operator,
  });
  ctx.data.sessions.get(id)?.unshift(session);
  const token = `preview.${crypto.randomUUID()}`;
  return {
    token,
    sessionId: session.id,
    userId: id,
    expiresAt: session.expiresAt,
    cookie: `better-auth.session_token=${token}`,
  };
}

/** Removes the rows of a per-user list whose id is `rowId` (`undefined`: all); `404` when none matched. */
function removeRows<T extends { id: string }>(
  ctx: PreviewContext,
  rows: Map<string, T[]>,
  userId: string,
  rowId?: string,
): number {
  userOf(ctx.data, userId);
  const before = rows.get(userId) ?? [];
  const kept = rowId === undefined ? [] : before.filter((row) => row.id !== rowId);
  if (kept.length === before.length && rowId !== undefined)
    throw new SvcError("NOT_FOUND", "No such row.");
  rows.set(userId, kept);
  return before.length - kept.length;
}

/** The user routes of the preview. */
export const userHandlers = {
  listUsers: async ({ ctx, query }) => {
    const search = (query.search ?? "").toLowerCase();
    const key = sortKey[query.sort ?? "created"] ?? sortKey.created!;
    const direction = query.order === "asc" ? 1 : -1;
    const matching = ctx.data.users
      .filter((user) =>
        `${user.name} ${user.email} ${user.username}`.toLowerCase().includes(search),
      )
      .filter((user) => query.role === undefined || user.role === query.role)
      .filter((user) => query.banned === undefined || user.banned === query.banned)
      .sort((a, b) => key(a).localeCompare(key(b)) * direction);
    const { items, nextCursor } = page(matching, query);
    return { users: items, total: matching.length, totalIsExact: true, nextCursor };
  },
  createUser: async ({ ctx, body, audit }) => {
    const email = body.email.trim().toLowerCase();
    if (ctx.data.users.some((user) => user.email === email))
      throw new SvcError("CONFLICT", `A user with the email ${email} already exists.`);
    const user = fakeOf(adminUser, { id: newId("usr"), email, name: body.name, createdAt: now() });
    user.role = typeof body.role === "string" ? body.role : "user";
    ctx.data.users.unshift(user);
    ctx.data.sessions.set(user.id, []);
    ctx.data.passkeys.set(user.id, []);
    const credential = fakeOf(adminAccount, { id: newId("acc"), providerId: "credential" });
    ctx.data.accounts.set(user.id, body.password ? [credential] : []);
    audit.targetId = user.id;
    audit.userId = user.id;
    const kind = body.signInLink;
    return kind === undefined
      ? { user }
      : { user, signInLink: { kind, sentTo: email, sent: true as const } };
  },
  listUserNames: async ({ ctx, query }) => {
    const ids = new Set(query.ids.split(",").map((id) => id.trim()));
    const users = ctx.data.users.filter((user) => ids.has(user.id));
    return { users: users.map(({ id, name, email }) => ({ id, name, email })) };
  },
  getUser: async ({ ctx, params }) => userDetail(ctx, params.id),
  updateUser: async ({ ctx, params, body }) => ({
    user: changeUser(ctx, params.id, body).user,
    profile: userDetail(ctx, params.id).profile,
  }),
  deleteUser: async ({ ctx, params }) => {
    const user = userOf(ctx.data, params.id);
    ctx.data.users.splice(ctx.data.users.indexOf(user), 1);
    return { deleted: true };
  },
  setRole: async ({ ctx, params, body }) => changeUser(ctx, params.id, { role: String(body.role) }),
  banUser: async ({ ctx, params, body, audit }) => {
    ctx.data.sessions.set(params.id, []);
    audit.reason = body.reason ?? null;
    const ban = {
      banned: true,
      banReason: body.reason ?? null,
      banExpires: body.expiresAt ?? null,
    };
    return changeUser(ctx, params.id, ban);
  },
  unbanUser: async ({ ctx, params }) =>
    changeUser(ctx, params.id, { banned: false, banReason: null, banExpires: null }),
  setPassword: async ({ ctx, params }) => {
    changeUser(ctx, params.id, {});
    return { updated: true, createdCredentialAccount: false };
  },
  sendSignInLink: async ({ ctx, params, body }) => ({
    signInLink: { kind: body.kind, sentTo: userOf(ctx.data, params.id).email, sent: true },
  }),
  impersonate: async ({ ctx, params, body, audit }) => {
    audit.reason = body.reason ?? null;
    return impersonate(ctx, params.id, body.durationSeconds);
  },
  impersonationLink: async ({ ctx, params, body, url, audit }) => {
    audit.reason = body.reason ?? null;
    const { expiresAt } = impersonate(ctx, params.id, body.durationSeconds);
    return { url: `${url.origin}/`, expiresAt };
  },
  listSessions: async ({ ctx, params }) => ({ sessions: userDetail(ctx, params.id).sessions }),
  revokeSessions: async ({ ctx, params }) => ({
    revoked: removeRows(ctx, ctx.data.sessions, params.id),
  }),
  revokeSession: async ({ ctx, params }) => {
    removeRows(ctx, ctx.data.sessions, params.id, params.sessionId);
    return { revoked: 1 };
  },
  disableTwoFactor: async ({ ctx, params }) =>
    changeUser(ctx, params.id, { twoFactorEnabled: false }),
  listPasskeys: async ({ ctx, params }) => ({ passkeys: userDetail(ctx, params.id).passkeys }),
  revokePasskey: async ({ ctx, params }) => {
    removeRows(ctx, ctx.data.passkeys, params.id, params.passkeyId);
    return { deleted: true };
  },
  listAccounts: async ({ ctx, params }) => ({ accounts: userDetail(ctx, params.id).accounts }),
  unlinkAccount: async ({ ctx, params }) => {
    removeRows(ctx, ctx.data.accounts, params.id, params.accountId);
    return { deleted: true };
  },
} satisfies Partial<PreviewHandlers>;
