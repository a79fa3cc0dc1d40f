import { callAuthEndpoint, idOf } from "../auth-endpoint.ts";
import type { CreatedUser } from "../contract/index.ts";
import { isEmailAddress } from "../email-address.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { splitRoles } from "../plugin-settings.ts";
import { toUser } from "../records.ts";
import { checkSignInLink, linkName, trySendSignInLink } from "../sign-in-links.ts";
import { loadUserRow } from "./load.ts";
import { checkPasswordLength } from "./password.ts";

const MAX_NAME = 200;

/**
 * `POST users` with `{ email, name, password?, role?, emailVerified?, signInLink? }`:
 * creates the user through better-auth's admin plugin endpoint
 * (`auth.api.createUser`, called as the trusted server), so its validation,
 * `user.validateUserInfo`, database hooks and default role all apply; with a
 * password, it also gets a credential account. A taken email is `409`.
 *
 * With `signInLink` (one of `capabilities.signInLinks`), better-auth then
 * emails the new user a magic link or a password-setup link through the
 * app's own sender. The user is created whether or not that email goes out:
 * the answer's `signInLink` says which (`sent: false` with the error), and
 * the operator can send again with `POST users/:id/sign-in-link`. A
 * password-setup link beside a password, or a magic link beside a password
 * without `emailVerified: true` (following it would remove the password),
 * is refused.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users { "email": "ann@example.com", "name": "Ann", "signInLink": "magic-link" }
 * → 201 { user, signInLink: { kind: "magic-link", sentTo: "ann@example.com", sent: true } }
 * ```
 */
export async function createUser(
  call: AdminCall<"createUser">,
): Promise<AdminAnswer<"createUser">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const body = call.body;
  const email = body.email.trim().toLowerCase();
  const name = body.name.trim();
  const roles = body.role === undefined ? undefined : splitRoles(body.role);
  audit.target = { targetType: "user", targetId: email, userId: null };
  const issues = new Issues("body");
  if (!isEmailAddress(email)) issues.add("email", "must be an email address");
  if (name === "" || name.length > MAX_NAME)
    issues.add("name", `must be 1 to ${MAX_NAME} characters`);
  const known = environment.roles?.assignable ?? [];
  if (roles !== undefined && roles.length === 0) issues.add("role", "must name a role");
  for (const role of roles ?? []) {
    if (!known.includes(role))
      issues.add("role", `unknown role ${JSON.stringify(role)} (known: ${known.join(", ")})`);
  }
  if (body.password !== undefined && !environment.emailAndPassword) {
    issues.add(
      "password",
      "email + password sign-in is not enabled, so a password could never be used",
    );
  }
  if (body.signInLink !== undefined) {
    checkSignInLink(environment, body.signInLink, issues, "signInLink");
    if (body.signInLink === "password-setup" && body.password !== undefined) {
      issues.add("signInLink", "a password is given, so there is no password to set up");
    }
    if (
      body.signInLink === "magic-link" &&
      body.password !== undefined &&
      body.emailVerified !== true
    ) {
      // better-auth's magic link verification strips an unverified user's
      // password (revokeUnprovenAccountAccess): the link would undo it.
      issues.add(
        "signInLink",
        "following a magic link removes the password of a user whose email is not verified; " +
          "send emailVerified: true, or leave out the password or the link",
      );
    }
  }
  issues.throwIfAny();
  if (body.password !== undefined) checkPasswordLength(environment, body.password);
  const result = await callAuthEndpoint(environment, "createUser", {
    email,
    name,
    ...(body.password === undefined ? {} : { password: body.password }),
    ...(roles === undefined ? {} : { role: roles.length === 1 ? roles[0] : roles }),
    ...(body.emailVerified === undefined ? {} : { data: { emailVerified: body.emailVerified } }),
  });
  const id = idOf(result.user, "createUser");
  audit.target = { targetType: "user", targetId: id, userId: id };
  audit.detail = `created ${email}${body.password === undefined ? "" : " with a password"}`;
  const answer: CreatedUser = { user: toUser(await loadUserRow(environment, id), Date.now()) };
  if (body.signInLink !== undefined) {
    const outcome = await trySendSignInLink(environment, body.signInLink, email);
    answer.signInLink = outcome;
    audit.detail += outcome.sent
      ? `; ${linkName(outcome.kind)} sent to ${email}`
      : `; sending the ${linkName(outcome.kind)} failed: ${outcome.error.message}`;
  }
  return answer;
}
