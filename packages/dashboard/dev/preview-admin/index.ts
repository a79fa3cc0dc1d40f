/**
 * DEV PREVIEW ONLY: an in-memory fake of the admin API to design the
 * dashboard against. It implements the real route declarations
 * (`ADMIN_AUTH_ROUTES`) with `serveRoutes`, so routing, 404/405, query and
 * body checks and the answer types are the real ones; the handlers here only
 * move fake data, and the routes a preview does not act out (export, import,
 * overview's numbers aside, the OpenAPI documents) answer values derived from
 * their answer validators. Tests never use it.
 */
import { ADMIN_AUTH_ROUTES, AUDIT_ACTIONS } from "@svc/auth/admin-contract";
import type { AuthAdminSurface, DashboardAssets } from "@svc/server";
import { fakeOf, implement, serveRoutes } from "@svc/server/routes";
import type { Capabilities } from "../../ui/api/types.ts";
import { organizationOf, organizationHandlers as orgs } from "./organizations.ts";
import { previewOverview } from "./overview.ts";
import { seedPreviewData } from "./seed.ts";
import {
  changeUser,
  createUser,
  impersonate,
  listUsers,
  type PreviewContext,
  page,
  record,
  removeRows,
  userDetail,
  userOf,
} from "./users.ts";

/** Options of the preview's fake admin surface. */
export interface PreviewAdminOptions {
  dashboard: DashboardAssets;
  organizations: boolean;
  /** Added to every answer so loading states can be seen. */
  latencyMs: number;
}

const routes = ADMIN_AUTH_ROUTES.routes;

const implementation = implement(ADMIN_AUTH_ROUTES)
  .context<PreviewContext>()
  .handlers({
    capabilities: async ({ ctx }) => ctx.capabilities,
    overview: async ({ ctx, query }) =>
      previewOverview(ctx.data, query.days ?? 30, ctx.capabilities.organizations),
    listUsers: async ({ ctx, query }) => listUsers(ctx, query),
    createUser: async ({ ctx, body }) => createUser(ctx, body),
    exportUsers: async ({ ctx }) =>
      new Response(ctx.data.users.map((user) => `${user.id},${user.email}`).join("\n"), {
        headers: { "content-type": "text/csv; charset=utf-8" },
      }),
    importUsers: async ({ query }) =>
      fakeOf(routes.importUsers.answer, { dryRun: query.dryRun ?? false }),
    getUser: async ({ ctx, params }) => userDetail(ctx, params.id),
    updateUser: async ({ ctx, params, body }) => {
      const { user } = changeUser(ctx, params.id, "user.update", body);
      return { user, profile: userDetail(ctx, params.id).profile };
    },
    deleteUser: async ({ ctx, params }) => {
      const user = userOf(ctx.data, params.id);
      ctx.data.users.splice(ctx.data.users.indexOf(user), 1);
      record(ctx, "user.delete", "user", params.id);
      return { deleted: true };
    },
    setRole: async ({ ctx, params, body }) =>
      changeUser(ctx, params.id, "user.role", { role: String(body.role) }),
    banUser: async ({ ctx, params, body }) => {
      ctx.data.sessions.set(params.id, []);
      const ban = {
        banned: true,
        banReason: body.reason ?? null,
        banExpires: body.expiresAt ?? null,
      };
      return changeUser(ctx, params.id, "user.ban", ban, body.reason ?? null);
    },
    unbanUser: async ({ ctx, params }) =>
      changeUser(ctx, params.id, "user.unban", {
        banned: false,
        banReason: null,
        banExpires: null,
      }),
    setPassword: async ({ ctx, params }) => {
      changeUser(ctx, params.id, "user.password", {});
      return { updated: true, createdCredentialAccount: false };
    },
    sendSignInLink: async ({ ctx, params, body }) => ({
      signInLink: { kind: body.kind, sentTo: userOf(ctx.data, params.id).email, sent: true },
    }),
    impersonate: async ({ ctx, params, body }) => impersonate(ctx, params.id, body),
    impersonationLink: async ({ ctx, params, body, url }) => ({
      url: `${url.origin}/`,
      expiresAt: impersonate(ctx, params.id, body).expiresAt,
    }),
    listSessions: async ({ ctx, params }) => ({ sessions: userDetail(ctx, params.id).sessions }),
    revokeSessions: async ({ ctx, params }) => ({
      revoked: removeRows(ctx, ctx.data.sessions, params.id, undefined, [
        "session.revoke-all",
        "user",
      ]),
    }),
    revokeSession: async ({ ctx, params }) => {
      removeRows(ctx, ctx.data.sessions, params.id, params.sessionId, [
        "session.revoke",
        "session",
      ]);
      return { revoked: 1 };
    },
    disableTwoFactor: async ({ ctx, params }) =>
      changeUser(ctx, params.id, "two-factor.disable", { twoFactorEnabled: false }),
    listPasskeys: async ({ ctx, params }) => ({ passkeys: userDetail(ctx, params.id).passkeys }),
    revokePasskey: async ({ ctx, params }) => {
      removeRows(ctx, ctx.data.passkeys, params.id, params.passkeyId, [
        "passkey.delete",
        "passkey",
      ]);
      return { deleted: true };
    },
    listAccounts: async ({ ctx, params }) => ({ accounts: userDetail(ctx, params.id).accounts }),
    unlinkAccount: async ({ ctx, params }) => {
      removeRows(ctx, ctx.data.accounts, params.id, params.accountId, [
        "account.unlink",
        "account",
      ]);
      return { deleted: true };
    },
    listOrganizations: async ({ ctx, query }) => orgs.listOrganizations(ctx, query),
    createOrganization: async ({ ctx, body }) => orgs.createOrganization(ctx, body),
    getOrganization: async ({ ctx, params }) => ({
      organization: organizationOf(ctx, params.id).organization,
    }),
    updateOrganization: async ({ ctx, params, body }) =>
      orgs.updateOrganization(ctx, params.id, body),
    deleteOrganization: async ({ ctx, params }) => orgs.deleteOrganization(ctx, params.id),
    addMember: async ({ ctx, params, body }) => orgs.addMember(ctx, params.id, body),
    removeMember: async ({ ctx, params }) => orgs.removeMember(ctx, params.id, params.memberId),
    setMemberRole: async ({ ctx, params, body }) =>
      orgs.setMemberRole(ctx, params.id, params.memberId, body.role),
    invite: async ({ ctx, params, body }) => orgs.invite(ctx, params.id, body),
    resendInvitation: async ({ ctx, params }) =>
      orgs.resendInvitation(ctx, params.id, params.invitationId),
    cancelInvitation: async ({ ctx, params }) =>
      orgs.cancelInvitation(ctx, params.id, params.invitationId),
    listMembers: async ({ ctx, params, query }) => {
      const { items, nextCursor } = page(organizationOf(ctx, params.id).members, query);
      return { members: items, nextCursor };
    },
    listInvitations: async ({ ctx, params, query }) => {
      const { items, nextCursor } = page(organizationOf(ctx, params.id).invitations, query);
      return { invitations: items, nextCursor };
    },
    listAudit: async ({ ctx, query }) => {
      const matching = ctx.data.audit.filter(
        (entry) =>
          (query.target === undefined || entry.targetId === query.target) &&
          (query.action === undefined || entry.action === query.action),
      );
      const { items, nextCursor } = page(matching, query);
      return { entries: items, nextCursor };
    },
    openApi: async () => fakeOf(routes.openApi.answer),
    authApiOpenApi: async () => fakeOf(routes.authApiOpenApi.answer),
  });

/** The fake surface, with its own state for the life of the preview isolate. */
export function createPreviewAdmin(options: PreviewAdminOptions): AuthAdminSurface {
  const data = seedPreviewData();
  const capabilities = previewCapabilities(options.organizations);
  const server = serveRoutes(implementation, {
    capability: (name) => name !== "organizations" || options.organizations,
  });
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
    async handle(request, { path, operator }) {
      if (options.latencyMs > 0)
        await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      return server.handle(request, { path, ctx: { data, capabilities, operator } });
    },
  };
}

function previewCapabilities(organizations: boolean): Capabilities {
  return {
    userActions: true,
    organizations: organizations,
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
      ...(organizations ? ["organization"] : []),
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
    auditActions: [...AUDIT_ACTIONS],
    passwordLength: { min: 8, max: 128 },
    signInLinks: ["magic-link", "password-setup"],
  };
}
