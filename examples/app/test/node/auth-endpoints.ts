import { betterAuth } from "better-auth";
import { appPlugins } from "../../src/auth-plugins.ts";

/** One HTTP endpoint of the example app's better-auth, as the endpoint declares it. */
export interface AuthEndpoint {
  /** After the base path, with its parameters (`/reset-password/:token`). */
  path: string;
  /** The first method it answers. */
  method: string;
}

/**
 * Every endpoint the example app's better-auth answers over HTTP (its
 * plugins exactly as `src/auth.ts` builds them, organizations on), read from
 * a database-less instance: the list a test must cover, so a plugin added to
 * the app is covered, or fails, without anyone editing the test.
 *
 * @example
 * ```ts
 * exampleEndpoints().some((endpoint) => endpoint.path === "/sign-in/email"); // true
 * ```
 */
export function exampleEndpoints(): AuthEndpoint[] {
  const auth = betterAuth({
    secret: "endpoint-listing-secret-0123456789abcdef",
    baseURL: "http://127.0.0.1",
    emailAndPassword: { enabled: true },
    plugins: appPlugins({}),
    logger: { disabled: true },
  });
  const endpoints: AuthEndpoint[] = [];
  for (const endpoint of Object.values(auth.api) as {
    path?: string;
    options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } };
  }[]) {
    if (!endpoint.path || endpoint.options?.metadata?.SERVER_ONLY) continue;
    const method = endpoint.options?.method;
    endpoints.push({
      path: endpoint.path,
      method: (Array.isArray(method) ? method[0] : method) ?? "GET",
    });
  }
  return endpoints.sort((a, b) => a.path.localeCompare(b.path));
}
