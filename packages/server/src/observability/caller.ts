import type { Identity } from "../model/identity.ts";
import type { Caller } from "./record.ts";

/**
 * The caller of every call without an identity: one frozen object, not a
 * fresh one per anonymous call (records only read it).
 *
 * @example record.caller === ANONYMOUS // an anonymous call
 */
export const ANONYMOUS: Caller = Object.freeze({ kind: "anonymous" });

/**
 * The caller a record shows for a resolved identity: a user, anonymous, or
 * an API key (an identity carrying the `apiKey` claim: the key's id, never
 * its secret, with its owning user's id, `null` for an organization's key).
 *
 * @example callerOf({ userId: "u1" }) // { kind: "user", id: "u1" }
 */
export function callerOf(identity: Identity | null): Caller {
  if (identity === null) return ANONYMOUS;
  const { apiKey } = identity;
  if (apiKey !== undefined) return { kind: "apiKey", id: apiKey.id, userId: apiKey.ownerUserId };
  return { kind: "user", id: identity.userId };
}
