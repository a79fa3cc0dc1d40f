import { env } from "cloudflare:workers";
import { apiKeySelfService, createAuth, svcDatabaseAdapter } from "@svc/auth";
import { appPlugins, type PluginVars } from "./auth-plugins.ts";

/** The example app's environment (see wrangler.jsonc and .dev.vars). */
interface AuthEnv extends PluginVars {
  DB: D1Database;
  AUTH_SECRET: string;
  /** The app's public origin (e.g. `https://app.example.com`); unset locally. */
  PUBLIC_URL?: string;
}

const vars = env as unknown as AuthEnv;

/** The app's better-auth instance over the `DB` D1 database. */
export const auth = createAuth({
  secret: vars.AUTH_SECRET,
  // Deployed: the public origin. Locally: whatever loopback port wrangler dev listens on.
  baseURL: vars.PUBLIC_URL ?? {
    allowedHosts: ["127.0.0.1:*", "localhost:*"],
    protocol: "http",
    fallback: "http://127.0.0.1:8787",
  },
  database: svcDatabaseAdapter(vars.DB),
  emailAndPassword: {
    enabled: true,
    // A real app emails the link; the example prints it (the admin API's password-setup links use it too).
    sendResetPassword: async ({ user, url }) =>
      console.log(`password reset link for ${user.email}: ${url}`),
  },
  // Signed-in users manage their own API keys (and their organizations') at /api/auth/api-keys.
  plugins: [...appPlugins(vars), apiKeySelfService()],
});
