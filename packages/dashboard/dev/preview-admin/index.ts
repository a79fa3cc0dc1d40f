/**
 * DEV PREVIEW ONLY: an in-memory fake of the admin API that speaks
 * `docs/admin-api.md` closely enough to design the dashboard against. It is
 * not the real surface (`createAuthAdmin` in `@svc/auth` is) and tests never
 * use it.
 */
import type { AuthAdminSurface, DashboardAssets } from "@svc/server";
import { SvcError } from "@svc/server";
import { problemResponse } from "@svc/server/internal";
import type { AuditEntry, Capabilities, User } from "../../ui/api/types.ts";
import { manageOrganization } from "./organizations.ts";
import { previewOverview } from "./overview.ts";
import { type PreviewData, seedPreviewData } from "./seed.ts";

/** Options of the preview's fake admin surface. */
export interface PreviewAdminOptions {
  dashboard: DashboardAssets;
  organizations: boolean;
  /** Added to every answer so loading states can be seen. */
  latencyMs: number;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

function page<T>(items: T[], url: URL): { items: T[]; nextCursor: string | null } {
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get("limit") ?? "25")));
  const offset = Number(url.searchParams.get("cursor") ?? "0");
  const next = offset + limit;
  return {
    items: items.slice(offset, next),
    nextCursor: next < items.length ? String(next) : null,
  };
}

function listUsers(data: PreviewData, url: URL): Response {
  const search = (url.searchParams.get("search") ?? "").toLowerCase();
  const role = url.searchParams.get("role");
  const banned = url.searchParams.get("banned");
  const sort = url.searchParams.get("sort") ?? "created";
  const order = url.searchParams.get("order") === "asc" ? 1 : -1;
  const key = (user: User) =>
    sort === "email"
      ? user.email
      : sort === "name"
        ? user.name
        : sort === "lastSignIn"
          ? (user.lastSignInAt ?? "")
          : sort === "lastActive"
            ? (user.lastActiveAt ?? "")
            : user.createdAt;
  const matching = data.users
    .filter(
      (user) =>
        search === "" ||
        `${user.name} ${user.email} ${user.username}`.toLowerCase().includes(search),
    )
    .filter((user) => !role || user.role === role)
    .filter((user) => banned === null || String(user.banned) === banned)
    .sort((a, b) => key(a).localeCompare(key(b)) * order);
  const { items, nextCursor } = page(matching, url);
  return json({ users: items, total: matching.length, nextCursor });
}

/** The fake surface, with its own state for the life of the preview isolate. */
export function createPreviewAdmin(options: PreviewAdminOptions): AuthAdminSurface {
  const data = seedPreviewData();
  const capabilities: Capabilities = {
    userActions: true,
    organizations: options.organizations,
    twoFactor: true,
    passkeys: true,
    linkedAccounts: true,
    sessions: true,
    username: true,
    roles: ["user", "admin"],
    plugins: [
      "admin",
      "bearer",
      "twoFactor",
      "passkey",
      "username",
      ...(options.organizations ? ["organization"] : []),
    ],
    userFields: [
      { name: "name", type: "string", required: true, unique: false },
      { name: "email", type: "string", required: true, unique: true, format: "email" },
      { name: "emailVerified", type: "boolean", required: false, unique: false },
      { name: "image", type: "string", required: false, unique: false, format: "url" },
      {
        name: "username",
        type: "string",
        required: false,
        unique: true,
        minLength: 3,
        maxLength: 30,
      },
    ],
    auditActions: [
      "user.create",
      "user.delete",
      "user.role",
      "user.ban",
      "user.unban",
      "user.password",
      "user.impersonate",
      "session.revoke",
      "session.revoke-all",
      "account.unlink",
    ],
    passwordLength: { min: 8, max: 128 },
    signInLinks: ["magic-link", "password-setup"],
  };
  const profileOf = (user: User) =>
    Object.fromEntries(
      capabilities.userFields.map((field) => [field.name, user[field.name as keyof User]]),
    );
  const userOf = (id: string) => {
    const user = data.users.find((candidate) => candidate.id === id);
    if (user === undefined) throw new SvcError("NOT_FOUND", "No user with this id.");
    return user;
  };
  const audit = (
    operator: string,
    action: string,
    targetType: AuditEntry["targetType"],
    targetId: string,
    reason: string | null = null,
  ) => {
    data.audit.unshift({
      id: `aud_${Date.now().toString(36)}`,
      at: new Date().toISOString(),
      operator,
      action,
      targetType,
      targetId,
      userId: targetType === "user" ? targetId : null,
      outcome: "ok",
      detail: null,
      reason,
    });
  };
  const body = async (request: Request): Promise<Record<string, unknown>> => {
    const value: unknown = await request.json().catch(() => null);
    if (typeof value !== "object" || value === null)
      throw new SvcError("BAD_REQUEST", "The body must be a JSON object.");
    return value as Record<string, unknown>;
  };

  const route = async (request: Request, path: string, operator: string): Promise<Response> => {
    const url = new URL(request.url);
    const parts = path.split("/").map(decodeURIComponent);
    const method = request.method;
    const [root, id, sub, subId] = parts;
    if (root === "capabilities") return json(capabilities);
    if (root === "overview") {
      const days = Number(url.searchParams.get("days") ?? 30);
      return json(previewOverview(data, days, options.organizations));
    }
    if (root === "users" && id === undefined) {
      if (method === "GET") return listUsers(data, url);
      const input = await body(request);
      const email = String(input.email ?? "").trim();
      if (!email.includes("@"))
        throw new SvcError("VALIDATION_FAILED", "Enter a valid email address.", {
          issues: [{ path: "email", message: "must be an email address" }],
        });
      if (data.users.some((user) => user.email === email))
        throw new SvcError("CONFLICT", `A user with the email ${email} already exists.`);
      const now = new Date().toISOString();
      const user: User = {
        id: `usr_${Date.now().toString(36)}`,
        email,
        name: String(input.name ?? ""),
        emailVerified: false,
        image: null,
        role: typeof input.role === "string" ? input.role : "user",
        banned: false,
        banReason: null,
        banExpires: null,
        username: null,
        displayUsername: null,
        twoFactorEnabled: false,
        phoneNumber: null,
        phoneNumberVerified: false,
        lastSignInAt: null,
        lastActiveAt: null,
        isAnonymous: false,
        createdAt: now,
        updatedAt: now,
      };
      data.users.unshift(user);
      data.sessions.set(user.id, []);
      data.accounts.set(
        user.id,
        input.password
          ? [
              {
                id: `acc_${Date.now().toString(36)}`,
                providerId: "credential",
                accountId: user.id,
                scope: null,
                createdAt: now,
                updatedAt: now,
              },
            ]
          : [],
      );
      data.passkeys.set(user.id, []);
      audit(operator, "user.create", "user", user.id);
      const kind = input.signInLink;
      if (kind === "magic-link" || kind === "password-setup") {
        return json({ user, signInLink: { kind, sentTo: email, sent: true } }, 201);
      }
      return json({ user }, 201);
    }
    if (root === "users" && id !== undefined) {
      const user = userOf(id);
      if (sub === undefined && method === "GET") {
        return json({
          user,
          profile: profileOf(user),
          accounts: data.accounts.get(id) ?? [],
          sessions: data.sessions.get(id) ?? [],
          passkeys: data.passkeys.get(id) ?? [],
        });
      }
      if (sub === undefined && method === "PATCH") {
        Object.assign(user, await body(request), { updatedAt: new Date().toISOString() });
        audit(operator, "user.update", "user", id);
        return json({ user, profile: profileOf(user) });
      }
      if (sub === undefined && method === "DELETE") {
        if (
          user.role === "admin" &&
          data.users.filter((candidate) => candidate.role === "admin").length === 1
        )
          throw new SvcError("CONFLICT", "This is the last admin; make someone else admin first.");
        data.users.splice(data.users.indexOf(user), 1);
        audit(operator, "user.delete", "user", id);
        return json({ deleted: true });
      }
      if (sub === "role") {
        user.role = String((await body(request)).role);
        audit(operator, "user.role", "user", id);
        return json({ user });
      }
      if (sub === "ban") {
        if (user.banned) throw new SvcError("CONFLICT", "This user is already banned.");
        const input = await body(request);
        user.banned = true;
        user.banReason = typeof input.reason === "string" ? input.reason : null;
        user.banExpires = typeof input.expiresAt === "string" ? input.expiresAt : null;
        data.sessions.set(id, []);
        audit(operator, "user.ban", "user", id, user.banReason);
        return json({ user });
      }
      if (sub === "unban") {
        if (!user.banned) throw new SvcError("CONFLICT", "This user is not banned.");
        Object.assign(user, { banned: false, banReason: null, banExpires: null });
        audit(operator, "user.unban", "user", id);
        return json({ user });
      }
      if (sub === "password") {
        const input = await body(request);
        if (String(input.password ?? "").length < 8)
          throw new SvcError("VALIDATION_FAILED", "The password must be at least 8 characters.");
        const accounts = data.accounts.get(id) ?? [];
        const created = !accounts.some((account) => account.providerId === "credential");
        if (created)
          accounts.push({
            id: `acc_${Date.now().toString(36)}`,
            providerId: "credential",
            accountId: id,
            scope: null,
            createdAt: new Date().toISOString(),
            updatedAt: new Date().toISOString(),
          });
        audit(operator, "user.password", "user", id);
        return json({ updated: true, createdCredentialAccount: created });
      }
      if (sub === "impersonate") {
        const input = await body(request);
        const seconds = typeof input.durationSeconds === "number" ? input.durationSeconds : 3600;
        const session = {
          id: `ses_${Date.now().toString(36)}`,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
          ipAddress: null,
          userAgent: request.headers.get("user-agent"),
          impersonatedBy: operator,
        };
        data.sessions.get(id)?.unshift(session);
        audit(
          operator,
          "user.impersonate",
          "user",
          id,
          typeof input.reason === "string" ? input.reason : null,
        );
        return json({
          token: `preview.${crypto.randomUUID()}`,
          sessionId: session.id,
          userId: id,
          expiresAt: session.expiresAt,
        });
      }
      if (sub === "sessions" && method === "DELETE") {
        const sessions = data.sessions.get(id) ?? [];
        if (subId === undefined) {
          data.sessions.set(id, []);
          audit(operator, "user.sessions.revoke", "user", id);
          return json({ revoked: sessions.length });
        }
        if (!sessions.some((session) => session.id === subId))
          throw new SvcError("NOT_FOUND", "No such session.");
        data.sessions.set(
          id,
          sessions.filter((session) => session.id !== subId),
        );
        audit(operator, "session.revoke", "session", subId);
        return json({ revoked: 1 });
      }
      if (sub === "accounts" && method === "DELETE" && subId !== undefined) {
        const accounts = data.accounts.get(id) ?? [];
        if (accounts.length <= 1)
          throw new SvcError("CONFLICT", "This is the user's last sign-in method.");
        data.accounts.set(
          id,
          accounts.filter((account) => account.id !== subId),
        );
        audit(operator, "account.unlink", "account", subId);
        return json({ deleted: true });
      }
      if (sub === "passkeys" && method === "DELETE" && subId !== undefined) {
        data.passkeys.set(
          id,
          (data.passkeys.get(id) ?? []).filter((passkey) => passkey.id !== subId),
        );
        audit(operator, "passkey.revoke", "passkey", subId);
        return json({ deleted: true });
      }
      if (sub === "two-factor") {
        user.twoFactorEnabled = false;
        audit(operator, "user.two-factor.disable", "user", id);
        return json({ user });
      }
    }
    if (root === "organizations") {
      if (!options.organizations) {
        if (id === undefined)
          return json({ enabled: false, organizations: [], total: 0, nextCursor: null });
        throw new SvcError("NOT_FOUND", "Not found.");
      }
      if (method !== "GET") {
        const managed = manageOrganization(
          data,
          method,
          parts,
          method === "DELETE" ? {} : await body(request),
        );
        if (managed === undefined) throw new SvcError("NOT_FOUND", "Not found.");
        audit(operator, `organization.${method.toLowerCase()}`, "organization", id ?? "new");
        return json(managed.body, managed.status);
      }
      if (id === undefined) {
        const search = (url.searchParams.get("search") ?? "").toLowerCase();
        const matching = data.organizations.filter((org) =>
          `${org.name} ${org.slug}`.toLowerCase().includes(search),
        );
        const { items, nextCursor } = page(matching, url);
        return json({ enabled: true, organizations: items, total: matching.length, nextCursor });
      }
      const organization = data.organizations.find((org) => org.id === id);
      if (organization === undefined)
        throw new SvcError("NOT_FOUND", "No organization with this id.");
      if (sub === undefined) return json({ organization });
      if (sub === "members") {
        const { items, nextCursor } = page(data.members.get(id) ?? [], url);
        return json({ members: items, nextCursor });
      }
      if (sub === "invitations") {
        const { items, nextCursor } = page(data.invitations.get(id) ?? [], url);
        return json({ invitations: items, nextCursor });
      }
    }
    if (root === "audit") {
      const target = url.searchParams.get("target");
      const action = url.searchParams.get("action");
      const matching = data.audit.filter(
        (entry) => (!target || entry.targetId === target) && (!action || entry.action === action),
      );
      const { items, nextCursor } = page(matching, url);
      return json({ entries: items, nextCursor });
    }
    throw new SvcError("NOT_FOUND", "Not found.");
  };

  return {
    dashboard: options.dashboard,
    // The data studio's "view as" and "run as": the preview's users, as sessionIdentity would show them.
    async lookupIdentity(idOrEmail) {
      const user = data.users.find(
        (candidate) => candidate.id === idOrEmail || candidate.email === idOrEmail,
      );
      return user === undefined
        ? null
        : { userId: user.id, sessionId: "", user: { ...user }, session: {} };
    },
    async handle(request, context) {
      if (options.latencyMs > 0)
        await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      try {
        return await route(request, context.path, context.operator);
      } catch (error) {
        return problemResponse(error);
      }
    },
  };
}
