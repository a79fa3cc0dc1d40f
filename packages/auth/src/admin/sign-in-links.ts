import { SvcError } from "@svc/server";
import { callAuthEndpoint } from "./auth-endpoint.ts";
import type { SignInLinkKind, SignInLinkOutcome } from "./contract/index.ts";
import type { AdminEnvironment } from "./environment.ts";
import { toAdminError } from "./errors.ts";
import type { Issues } from "./issues.ts";

/**
 * How an audit entry names a link kind: "magic link", "password-setup link".
 *
 * @example
 * ```ts
 * `${linkName("magic-link")} sent to ann@example.com`; // "magic link sent to ann@example.com"
 * ```
 */
export function linkName(kind: SignInLinkKind): string {
  return kind === "magic-link" ? "magic link" : "password-setup link";
}

/** Where a link lands once followed: the app's root, as better-auth's own clients default to. */
const CALLBACK_URL = "/";

/**
 * Adds an issue at `field` when this app cannot send `kind`, naming what it
 * lacks, so a refused request says how to make it possible.
 *
 * @example
 * ```ts
 * checkSignInLink(environment, body.signInLink, issues, "signInLink");
 * ```
 */
export function checkSignInLink(
  environment: AdminEnvironment,
  kind: SignInLinkKind,
  issues: Issues,
  field: string,
): void {
  if (environment.capabilities.signInLinks.includes(kind)) return;
  issues.add(
    field,
    kind === "magic-link"
      ? "the magic link plugin is not enabled (add magicLink({ sendMagicLink }) to plugins)"
      : "password-setup links need email + password sign-in with emailAndPassword.sendResetPassword",
  );
}

/**
 * Has better-auth email `kind` to `email` through its own server endpoint
 * (`signInMagicLink` or `requestPasswordReset`), so the token is made,
 * stored and expired as for the app's own clients and the app's sender
 * writes the email. Throws what the endpoint or the sender threw.
 *
 * @example
 * ```ts
 * await sendSignInLink(environment, "magic-link", "ann@example.com");
 * ```
 */
export async function sendSignInLink(
  environment: AdminEnvironment,
  kind: SignInLinkKind,
  email: string,
): Promise<void> {
  if (kind === "magic-link") {
    // The endpoint insists on headers; empty ones mean "the trusted server".
    await callAuthEndpoint(
      environment,
      "signInMagicLink",
      { email, callbackURL: CALLBACK_URL },
      new Headers(),
    );
  } else {
    await callAuthEndpoint(environment, "requestPasswordReset", {
      email,
      redirectTo: CALLBACK_URL,
    });
  }
}

/**
 * {@link sendSignInLink}, with a failure answered instead of thrown: for
 * `POST users`, whose user exists whether or not the email went out. A
 * failure's message is the admin error's (an internal one stays generic).
 *
 * @example
 * ```ts
 * const outcome = await trySendSignInLink(environment, "password-setup", email);
 * if (!outcome.sent) console.log(outcome.error.message);
 * ```
 */
export async function trySendSignInLink(
  environment: AdminEnvironment,
  kind: SignInLinkKind,
  email: string,
): Promise<SignInLinkOutcome> {
  try {
    await sendSignInLink(environment, kind, email);
    return { kind, sentTo: email, sent: true };
  } catch (thrown) {
    const error = toAdminError(thrown);
    if (!(error instanceof SvcError) || error.code === "INTERNAL") {
      console.error(`svc/auth admin: sending a ${linkName(kind)} failed`, thrown);
      return {
        kind,
        sentTo: email,
        sent: false,
        error: { code: "INTERNAL", message: "The app's email sender failed." },
      };
    }
    return {
      kind,
      sentTo: email,
      sent: false,
      error: { code: error.code, message: error.message },
    };
  }
}
