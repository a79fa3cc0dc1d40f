import { SvcError } from "@svc/server";
import type { SignInLinkOutcome } from "../contract/index.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { toUser } from "../records.ts";
import { checkSignInLink, linkName, sendSignInLink } from "../sign-in-links.ts";
import { loadUserRow } from "./load.ts";

/**
 * `POST users/:id/sign-in-link` with `{ kind }`: has better-auth email the
 * user a magic link or a password-setup link through the app's own sender,
 * e.g. when the one sent at creation failed or expired. A kind this app
 * cannot send is `400` at `body.kind`; a banned user is `409` (the link
 * could not sign them in); a failing sender is an error, recorded as such.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/sign-in-link { "kind": "magic-link" }
 * → { signInLink: { kind: "magic-link", sentTo: "ann@example.com", sent: true } }
 * ```
 */
export async function sendUserSignInLink(
  call: AdminCall<"sendSignInLink">,
): Promise<AdminAnswer<"sendSignInLink">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { kind } = call.body;
  const issues = new Issues("body");
  checkSignInLink(environment, kind, issues, "kind");
  issues.throwIfAny();
  const user = toUser(await loadUserRow(environment, call.params.id), Date.now());
  if (user.banned) {
    throw new SvcError(
      "CONFLICT",
      "The user is banned, so a sign-in link could not sign them in; unban them first.",
    );
  }
  await sendSignInLink(environment, kind, user.email);
  audit.detail = `${linkName(kind)} sent to ${user.email}`;
  const signInLink: SignInLinkOutcome = { kind, sentTo: user.email, sent: true };
  return { signInLink };
}
