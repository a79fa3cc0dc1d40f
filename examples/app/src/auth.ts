import { env } from "cloudflare:workers";
import { createAuth, svcDatabaseAdapter } from "@svc/auth";
import {
  admin,
  bearer,
  captcha,
  magicLink,
  organization,
  passkey,
  twoFactor,
  username,
} from "@svc/auth/plugins";

/** The example app's environment (see wrangler.jsonc and .dev.vars). */
interface AuthEnv {
  DB: D1Database;
  AUTH_SECRET: string;
  /** The app's public origin (e.g. `https://app.example.com`); unset locally. */
  PUBLIC_URL?: string;
  /** Turnstile secret; when set, captcha guards sign-up, sign-in and password reset. */
  CAPTCHA_SECRET_KEY?: string;
  /** `off` leaves the organization plugin out (the dashboard then shows its empty state). */
  ORGANIZATIONS?: string;
}

const vars = env as unknown as AuthEnv;

/**
 * The plugin set a real app would pick: admin, organizations, 2FA, passkeys,
 * usernames, magic links, bearer tokens for non-browser clients, and captcha
 * on the default endpoints whenever `CAPTCHA_SECRET_KEY` is set (the provider
 * is unreachable offline, so it is off in the local default).
 */
const plugins = [
  admin(),
  ...(vars.ORGANIZATIONS === "off" ? [] : [organization({ allowUserToCreateOrganization: true })]),
  twoFactor({ issuer: "svc example" }),
  passkey({ rpName: "svc example" }),
  username(),
  magicLink({
    // A real app emails the link; the example prints it to the wrangler dev console.
    sendMagicLink: async ({ email, url }) => console.log(`magic link for ${email}: ${url}`),
  }),
  bearer(),
  ...(vars.CAPTCHA_SECRET_KEY
    ? [captcha({ provider: "cloudflare-turnstile", secretKey: vars.CAPTCHA_SECRET_KEY })]
    : []),
];

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
  plugins,
});
