import { v } from "@svc/server";
import { callAuthEndpoint, idOf } from "../auth-endpoint.ts";
import { isEmailAddress } from "../email-address.ts";
import { Issues, json, readBody } from "../http.ts";
import { splitRoles } from "../plugin-settings.ts";
import { toUser } from "../records.ts";
import type { ActionCall } from "../router.ts";
import { loadUserRow } from "./load.ts";
import { checkPasswordLength } from "./password.ts";

const BODY = v.object({
  email: v.string(),
  name: v.string(),
  password: v.optional(v.string()),
  role: v.optional(v.union(v.string(), v.array(v.string()))),
  emailVerified: v.optional(v.boolean()),
});

const MAX_NAME = 200;

/**
 * `POST users` with `{ email, name, password?, role?, emailVerified? }`:
 * creates the user through better-auth's admin plugin endpoint
 * (`auth.api.createUser`, called as the trusted server), so its validation,
 * `user.validateUserInfo`, database hooks and default role all apply; with a
 * password, it also gets a credential account. A taken email is `409`.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users { "email": "ann@example.com", "name": "Ann", "password": "…" } → 201 { user }
 * ```
 */
export async function createUser(call: ActionCall): Promise<Response> {
  const { environment, audit } = call;
  const body = await readBody(call.request, BODY);
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
  const row = await loadUserRow(environment, id);
  return json({ user: toUser(row, Date.now()) }, 201);
}
