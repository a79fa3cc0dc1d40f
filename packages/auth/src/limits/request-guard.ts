import { validationFailed } from "@svc/server";
import { decodeUtf8, readBodyBytes } from "@svc/server/internal";

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

/** A request body read once, to check and to forward. */
export interface CheckedBody {
  bytes: Uint8Array;
  /** The parsed JSON body, or `undefined` when it is not JSON. */
  json: unknown;
}

const isJson = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().includes("json");

/**
 * Reads an auth request's body under the cap (`413`), refuses invalid UTF-8
 * (`400`) and over-long user fields (`400 VALIDATION_FAILED`, each field
 * named). A body that is not JSON is left for better-auth to judge.
 *
 * @example
 * ```ts
 * const { bytes, json } = await checkAuthBody(request, DEFAULT_AUTH_MAX_BODY_BYTES);
 * ```
 */
export async function checkAuthBody(request: Request, maxBytes: number): Promise<CheckedBody> {
  const bytes = await readBodyBytes(request, maxBytes);
  if (bytes.byteLength === 0) return { bytes, json: undefined };
  const text = decodeUtf8(bytes);
  if (!isJson(request)) return { bytes, json: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { bytes, json: undefined };
  }
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    const issues = Object.entries(AUTH_FIELD_LIMITS)
      .filter(([field, max]) => {
        const value = (json as Record<string, unknown>)[field];
        return typeof value === "string" && value.length > max;
      })
      .map(([field, max]) => ({
        path: `body.${field}`,
        message: `must be at most ${max} characters`,
      }));
    if (issues.length > 0) throw validationFailed(issues);
  }
  return { bytes, json };
}
