import { env } from "cloudflare:workers";
import { createAuth, svcDatabaseAdapter } from "@svc/auth";
import { admin, bearer } from "@svc/auth/plugins";

/** The app's better-auth instance: email + password, admin roles, bearer tokens for non-browser clients. */
export const auth = createAuth({
  secret: env.AUTH_SECRET,
  // Deployed: your public origin. Locally: whatever loopback port `npm run dev` listens on.
  baseURL: env.PUBLIC_URL ?? {
    allowedHosts: ["127.0.0.1:*", "localhost:*"],
    protocol: "http",
    fallback: "http://127.0.0.1:8787",
  },
  database: svcDatabaseAdapter(env.DB),
  emailAndPassword: { enabled: true },
  plugins: [admin(), bearer()],
});
