import { SvcError, validationFailed } from "@svc/server";
import { AUTH_ACCOUNT_SOURCES } from "./accounts.ts";
import { type AuthBody, readAuthBody } from "./body-reader.ts";

/**
 * Largest body `handleAuthRequest` hands to better-auth. Sign-in and sign-up
 * bodies are well under 1 KiB; a passkey registration with its attestation
 * is a few KiB. A 5 MiB `name` used to be stored as is.
 */
export const DEFAULT_AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * Longest accepted value of each user field a client sends, in characters.
 * Emails follow RFC 5321's 254; names and usernames are display text.
 */
export const AUTH_FIELD_LIMITS: Readonly<Record<string, number>> = {
  name: 256,
  email: 254,
  username: 64,
  displayUsername: 64,
  phoneNumber: 32,
  image: 2048,
  password: 1024,
  newPassword: 1024,
  currentPassword: 1024,
  newEmail: 254,
};

/**
 * Endpoints that cannot work without a body (every one names its account in
 * it, or signs up, or edits the user), where plugin hooks read `ctx.body`
 * before better-auth validates it: without a body, the username plugin's
 * hook on `/sign-up/email` threw (500). Two-factor's OTP send takes none.
 */
const BODY_REQUIRED: ReadonlySet<string> = new Set([
  ...Object.keys(AUTH_ACCOUNT_SOURCES).filter((path) => path !== "/two-factor/send-otp"),
  "/sign-up/email",
  "/update-user",
]);

/**
 * Reads an auth request's body with the shared reader ({@link readAuthBody}:
 * `413` over the cap, `400` for invalid UTF-8 or an ambiguous content type)
 * and refuses over-long user fields (`400 VALIDATION_FAILED`, each field
 * named) in whatever encoding better-auth would read them: JSON, form or
 * multipart alike. A `POST` without a body to an endpoint that needs one
 * (`path`, after the base path) is `400 BAD_REQUEST`.
 *
 * @example
 * ```ts
 * const { bytes, fields } = await checkAuthBody(request, "/sign-in/email", DEFAULT_AUTH_MAX_BODY_BYTES);
 * ```
 */
export async function checkAuthBody(
  request: Request,
  path: string,
  maxBytes: number,
): Promise<AuthBody> {
  const body = await readAuthBody(request, maxBytes);
  if (body.encoding === "none" && request.method === "POST" && BODY_REQUIRED.has(path)) {
    throw new SvcError("BAD_REQUEST", `POST ${path} needs a request body.`);
  }
  const { fields } = body;
  if (fields === undefined) return body;
  const issues = Object.entries(AUTH_FIELD_LIMITS)
    .filter(([field, max]) => {
      const value = Object.hasOwn(fields, field) ? fields[field] : undefined;
      return typeof value === "string" && value.length > max;
    })
    .map(([field, max]) => ({
      path: `body.${field}`,
      message: `must be at most ${max} characters`,
    }));
  if (issues.length > 0) throw validationFailed(issues);
  return body;
}
