import { createRouteClient } from "@svc/server/routes/contract";
import type { AdminClient } from "./client.ts";
import { ADMIN_AUTH_MANIFEST, SVC_ADMIN_MANIFEST } from "./routes.generated.ts";

/**
 * Every admin route the dashboard calls, one typed method each, derived from
 * the route declarations (`@svc/auth/admin-contract` and `createWorker`'s
 * own) through the generated manifest, which holds them without their
 * validators: screens never spell a URL or a body, and a changed route
 * changes their types. Methods take `{ params, query, body, signal }` as declared.
 *
 * @example
 * ```ts
 * const api = adminApi(createAdminClient({ token }));
 * const { users } = await api.listUsers({ query: { search: "ann" } });
 * await api.banUser({ params: { id: users[0]!.id }, body: { reason: "spam" } });
 * ```
 */
export function adminApi(client: AdminClient) {
  const options = { readJson: client.readJson };
  return {
    ...createRouteClient(ADMIN_AUTH_MANIFEST, client.send, options),
    ...createRouteClient(SVC_ADMIN_MANIFEST, client.send, options),
  };
}

/** The typed admin API the screens use. */
export type AdminApi = ReturnType<typeof adminApi>;
