const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Admin areas whose paths carry ids or one-time codes: recorded by prefix only. */
const TEMPLATED_PREFIXES = [
  "/_svc/admin/auth/link/",
  "/_svc/admin/auth/",
  "/_svc/admin/data/",
] as const;

/**
 * The route an admin call is recorded under: the exact path for fixed
 * routes (`GET /_svc/admin/openapi`), the area with `*` for paths that carry
 * ids or one-time link codes (`POST /_svc/admin/auth/*`), so no id, code or
 * probing path ever becomes a route. Unusual methods are `OTHER`.
 *
 * @example adminRouteOf("POST", "/_svc/admin/auth/users/u1/ban") // "POST /_svc/admin/auth/*"
 */
export function adminRouteOf(method: string, path: string): string {
  const verb = METHODS.has(method) ? method : "OTHER";
  if (path === "/_svc/admin/openapi") return `${verb} ${path}`;
  const area = TEMPLATED_PREFIXES.find((prefix) => path.startsWith(prefix));
  return `${verb} ${area ?? "/_svc/admin/"}*`;
}
