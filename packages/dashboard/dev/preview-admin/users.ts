/**
 * DEV PREVIEW ONLY: the user routes of the fake admin API, over the
 * in-memory data. Routing, query and body checks come from the route
 * declarations (`serveRoutes`), so this file holds only what the data does.
 */

import { adminAccount, adminSession, adminUser } from "@svc/auth/admin-contract";
import { SvcError } from "@svc/server";
import { fakeOf } from "@svc/server/routes";
import type { AuditEntry, Capabilities, User } from "../../ui/api/types.ts";
import type { PreviewData } from "./seed.ts";

/** What every preview handler gets: the data and a way to record an audit entry. */
export interface PreviewContext {
  data: PreviewData;
  capabilities: Capabilities;
  operator: string;
}

const now = () => new Date().toISOString();
const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

/** Adds an entry to the fake audit trail, newest first. */
export function record(
  ctx: PreviewContext,
  action: string,
  targetType: AuditEntry["targetType"],
  targetId: string,
  reason: string | null = null,
): void {
  ctx.data.audit.unshift({
    id: newId("aud"),
    at: now(),
    operator: ctx.operator,
    action,
    targetType,
    targetId,
    userId: targetType === "user" ? targetId : null,
    outcome: "ok",
    detail: null,
    reason,
  });
}

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

/** `GET users`: search, role, banned, sort and order over the fake users. */
export function listUsers(
  ctx: PreviewContext,
  query: {
    search?: string;
    role?: string;
    banned?: boolean;
    sort?: string;
    order?: string;
    limit?: number;
    cursor?: string;
  },
) {
  const search = (query.search ?? "").toLowerCase();
  const key = sortKey[query.sort ?? "created"] ?? sortKey.created!;
  const direction = query.order === "asc" ? 1 : -1;
  const matching = ctx.data.users
    .filter((user) => `${user.name} ${user.email} ${user.username}`.toLowerCase().includes(search))
    .filter((user) => query.role === undefined || user.role === query.role)
    .filter((user) => query.banned === undefined || user.banned === query.banned)
    .sort((a, b) => key(a).localeCompare(key(b)) * direction);
  const { items, nextCursor } = page(matching, query);
  return { users: items, total: matching.length, totalIsExact: true, nextCursor };
}

/** `POST users`: a new user, with a credential account when a password is given. */
export function createUser(
  ctx: PreviewContext,
  body: {
    email: string;
    name: string;
    password?: string;
    role?: string | string[];
    signInLink?: "magic-link" | "password-setup";
  },
) {
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
  record(ctx, "user.create", "user", user.id);
  const kind = body.signInLink;
  return kind === undefined
    ? { user }
    : { user, signInLink: { kind, sentTo: email, sent: true as const } };
}

/** `GET users/:id`. */
export function userDetail(ctx: PreviewContext, id: string) {
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

/** Changes a user's fields, recorded in the trail; answers `{ user }`. */
export function changeUser(
  ctx: PreviewContext,
  id: string,
  action: string,
  changes: Partial<User>,
  reason: string | null = null,
) {
  const user = userOf(ctx.data, id);
  Object.assign(user, changes, { updatedAt: now() });
  record(ctx, action, "user", id, reason);
  return { user };
}

/** `POST users/:id/impersonate`: a fake session and token. */
export function impersonate(
  ctx: PreviewContext,
  id: string,
  body: { reason?: string; durationSeconds?: number },
) {
  userOf(ctx.data, id);
  const expiresAt = new Date(Date.now() + (body.durationSeconds ?? 3600) * 1000).toISOString();
  const session = fakeOf(adminSession, {
    id: newId("ses"),
    expiresAt,
    impersonatedBy: ctx.operator,
  });
  ctx.data.sessions.get(id)?.unshift(session);
  record(ctx, "user.impersonate", "user", id, body.reason ?? null);
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
export function removeRows<T extends { id: string }>(
  ctx: PreviewContext,
  rows: Map<string, T[]>,
  userId: string,
  rowId: string | undefined,
  audit: [action: string, targetType: AuditEntry["targetType"]],
): number {
  userOf(ctx.data, userId);
  const before = rows.get(userId) ?? [];
  const kept = rowId === undefined ? [] : before.filter((row) => row.id !== rowId);
  if (kept.length === before.length && rowId !== undefined)
    throw new SvcError("NOT_FOUND", "No such row.");
  rows.set(userId, kept);
  record(ctx, audit[0], audit[1], rowId ?? userId);
  return before.length - kept.length;
}
