import type { AuthAdminSurface } from "@svc/server";

/** The admin token of the data studio scenario's worker (a bench secret, nothing else). */
export const BENCH_ADMIN_TOKEN = "bench-admin-token-0123456789abcdef0123456789";

/**
 * The admin surface of the data studio scenario: no auth routes, and a user
 * looked up as the header-identity variant resolves one (`{ userId }`), so
 * "view as user" and the user's own read carry the same identity and
 * neither pays for resolving it (identity costs are measured in "gates").
 */
export const benchStudioAdmin: AuthAdminSurface = {
  handle: async () => new Response(null, { status: 404 }),
  lookupIdentity: async (idOrEmail) => ({ userId: idOrEmail }),
};
