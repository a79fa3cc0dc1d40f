import type { AdminEnvironment } from "./environment.ts";

/**
 * Calls one of better-auth's server endpoints (`auth.api[name]`) as the
 * trusted server, without a request or session, for the actions better-auth
 * lets the server take on a user's behalf (creating a user, an organization,
 * a member, a sign-in link): its validation, limits and the app's hooks then
 * apply exactly as for its own clients. Endpoints that insist on headers
 * (`requireHeaders`) get `headers`, empty for the server. Its `APIError`s
 * propagate for `toAdminError` to map.
 *
 * @example
 * ```ts
 * const result = await callAuthEndpoint(environment, "createUser", { email, name, password });
 * ```
 */
export async function callAuthEndpoint(
  environment: AdminEnvironment,
  name: string,
  body: Record<string, unknown>,
  headers?: Headers,
): Promise<Record<string, unknown>> {
  const endpoint: unknown = Reflect.get(environment.api, name);
  if (typeof endpoint !== "function") {
    throw new Error(`svc/auth admin: auth.api.${name} is missing (is its plugin enabled?)`);
  }
  const result: unknown = await Reflect.apply(endpoint, environment.api, [
    headers === undefined ? { body } : { body, headers },
  ]);
  if (typeof result !== "object" || result === null) {
    throw new Error(`svc/auth admin: auth.api.${name} answered without a record`);
  }
  return result as Record<string, unknown>;
}

/**
 * The `id` of a record better-auth answered, as a string.
 *
 * @example
 * ```ts
 * const id = idOf(Reflect.get(result, "user"), "createUser");
 * ```
 */
export function idOf(record: unknown, endpoint: string): string {
  const id: unknown =
    typeof record === "object" && record !== null ? Reflect.get(record, "id") : undefined;
  if (typeof id !== "string" && typeof id !== "number") {
    throw new Error(`svc/auth admin: auth.api.${endpoint} answered without an id`);
  }
  return String(id);
}
