import type { Identity } from "../procedures/context.ts";
import type { Caller } from "./record.ts";

/**
 * The caller a record shows for a resolved identity: a user, anonymous, or
 * an API key (an identity carrying a string `apiKeyId` claim, with its
 * owner's id) once API keys exist.
 *
 * @example callerOf({ userId: "u1" }) // { kind: "user", id: "u1" }
 */
export function callerOf(identity: Identity | null): Caller {
  if (identity === null) return { kind: "anonymous" };
  if (typeof identity.apiKeyId === "string") {
    return { kind: "apiKey", id: identity.apiKeyId, userId: identity.userId ?? null };
  }
  return { kind: "user", id: identity.userId };
}
