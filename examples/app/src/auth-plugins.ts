import {
  admin,
  bearer,
  captcha,
  magicLink,
  organization,
  twoFactor,
  username,
} from "@svc/auth/plugins";
import { passkey } from "@svc/auth/plugins/passkey";

/** The variables of the example app's environment that choose its plugins. */
export interface PluginVars {
  /** Turnstile secret; when set, captcha guards sign-up, sign-in and password reset. */
  CAPTCHA_SECRET_KEY?: string;
  /** `off` leaves the organization plugin out (the dashboard then shows its empty state). */
  ORGANIZATIONS?: string;
}

/**
 * The plugin set a real app would pick: admin, organizations, 2FA, passkeys,
 * usernames, magic links, bearer tokens for non-browser clients, and captcha
 * on the default endpoints whenever `CAPTCHA_SECRET_KEY` is set (the provider
 * is unreachable offline, so it is off in the local default). A module of its
 * own, free of `cloudflare:workers`, so Node-side tests can list the endpoints
 * these plugins add.
 *
 * @example
 * ```ts
 * createAuth({ secret, database, plugins: appPlugins(env) });
 * ```
 */
export function appPlugins(vars: PluginVars) {
  return [
    admin(),
    ...(vars.ORGANIZATIONS === "off"
      ? []
      : [organization({ allowUserToCreateOrganization: true })]),
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
}
