import { env } from "cloudflare:workers";
import { createAuth, svcDatabaseAdapter } from "@svc/auth";
import { bearer } from "@svc/auth/plugins";
import { betterAuth } from "better-auth";
import { countingD1 } from "./counters.ts";

interface BenchEnv {
  AUTH_DB: D1Database;
  PLAIN_DB: D1Database;
  AUTH_SECRET: string;
}

const vars = env as unknown as BenchEnv;
// The fallback lets `createAuthAdmin` (the API key scenario creates its key through it) build links.
const baseURL = {
  allowedHosts: ["127.0.0.1:*"],
  protocol: "http" as const,
  fallback: "http://127.0.0.1",
};

/** svc's auth: `createAuth` over D1, served through `handleAuthRequest`. */
export const auth = createAuth({
  secret: vars.AUTH_SECRET,
  baseURL,
  database: svcDatabaseAdapter(countingD1(vars.AUTH_DB)),
  emailAndPassword: { enabled: true },
  plugins: [bearer()],
});

/**
 * The same auth with better-auth's session cookie cache (a signed copy of the
 * session in a second cookie, trusted for `maxAge` seconds): `getSession`
 * then reads no database. Mounted at /cached-auth, same database and secret.
 */
export const cachedAuth = createAuth({
  secret: vars.AUTH_SECRET,
  baseURL,
  basePath: "/cached-auth",
  database: svcDatabaseAdapter(countingD1(vars.AUTH_DB)),
  emailAndPassword: { enabled: true },
  plugins: [bearer()],
  session: { cookieCache: { enabled: true, maxAge: 300 } },
});

/** The baseline: plain better-auth with the same options, mounted at /plain-auth. */
export const plainAuth = betterAuth({
  secret: vars.AUTH_SECRET,
  baseURL,
  basePath: "/plain-auth",
  database: vars.PLAIN_DB,
  emailAndPassword: { enabled: true },
  plugins: [bearer()],
  advanced: { database: { validateSchema: false } },
});
