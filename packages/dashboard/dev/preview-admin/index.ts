/**
 * DEV PREVIEW ONLY: an in-memory fake of the admin API to design the
 * dashboard against. It implements the real route declarations
 * (`ADMIN_AUTH_ROUTES`) with `serveRoutes`, so routing, 404/405, query and
 * body checks and the answer types are the real ones; the handlers here only
 * move fake data, and the routes a preview does not act out (export, import,
 * overview's numbers aside, the OpenAPI documents) answer values derived from
 * their answer validators. Tests never use it.
 */
import {
  ADMIN_AUTH_ROUTES,
  AUDIT_ACTIONS,
  AUDIT_TARGETS,
  csvRow,
  USER_EXPORT_COLUMNS,
} from "@svc/auth/admin-contract";
import type { AuthAdminSurface, DashboardAssets } from "@svc/server";
import { fakeOf, implement, serveRoutes } from "@svc/server/routes";
import type { AuditEntry, Capabilities } from "../../ui/api/types.ts";
import { apiKeyHandlers } from "./api-keys.ts";
import { organizationHandlers } from "./organizations.ts";
import { previewOverview } from "./overview.ts";
import { seedPreviewData } from "./seed.ts";
import { type PreviewContext, page, userHandlers } from "./users.ts";

/** Options of the preview's fake admin surface. */
export interface PreviewAdminOptions {
  dashboard: DashboardAssets;
  organizations: boolean;
  /** Added to every answer so loading states can be seen. */
  latencyMs: number;
}

const routes = ADMIN_AUTH_ROUTES.routes;

const implementation = implement(ADMIN_AUTH_ROUTES)
  .context<PreviewContext, AuditEntry>()
  .handlers({
    ...userHandlers,
    ...organizationHandlers,
    ...apiKeyHandlers,
    capabilities: async ({ ctx }) => ctx.capabilities,
    overview: async ({ ctx, query }) =>
      previewOverview(ctx.data, query.days ?? 30, ctx.capabilities.organizations),
    exportUsers: async ({ ctx }) => {
      const rows = ctx.data.users.map((user) => USER_EXPORT_COLUMNS.map((name) => user[name]));
      return new Response([USER_EXPORT_COLUMNS, ...rows].map(csvRow).join(""), {
        headers: { "content-type": "text/csv; charset=utf-8" },
      });
    },
    importUsers: async ({ query }) =>
      fakeOf(routes.importUsers.answer, { dryRun: query.dryRun ?? false }),
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
    // The trail records what the real one does: each declared action, its target from the path, refusals too.
    audit: {
      open: ({ name, action, params, ctx }): AuditEntry => {
        const target = AUDIT_TARGETS[name as keyof typeof AUDIT_TARGETS](params);
        const user = data.users.find((candidate) => candidate.id === target.userId);
        return {
          id: `aud_${crypto.randomUUID().slice(0, 8)}`,
          at: new Date().toISOString(),
          operator: ctx.operator,
          action,
          ...target,
          user: user === undefined ? null : { name: user.name, email: user.email },
          outcome: "ok",
          detail: null,
          reason: null,
        };
      },
      close: async (entry, error) => {
        const detail = error instanceof Error ? error.message : String(error);
        if (error !== undefined) Object.assign(entry, { outcome: "error", detail });
        data.audit.unshift(entry);
      },
    },
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
