import { validationFailed } from "@svc/server";
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
 * Reads an auth request's body with the shared reader ({@link readAuthBody}:
 * `413` over the cap, `400` for invalid UTF-8 or an ambiguous content type)
 * and refuses over-long user fields (`400 VALIDATION_FAILED`, each field
 * named) in whatever encoding better-auth would read them: JSON, form or
 * multipart alike.
 *
 * @example
 * ```ts
 * const { bytes, fields } = await checkAuthBody(request, DEFAULT_AUTH_MAX_BODY_BYTES);
 * ```
 */
export async function checkAuthBody(request: Request, maxBytes: number): Promise<AuthBody> {
  const body = await readAuthBody(request, maxBytes);
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
