import { SvcError } from "../../errors/svc-error.ts";
import type { Identity } from "../../model/identity.ts";
import type { RunAs, Viewer } from "./shard-protocol.ts";

/** Finds the identity of a user by id or email (`authAdmin.lookupIdentity`), `null` when none. */
export type IdentityLookup = (idOrEmail: string) => Promise<Identity | null>;

/**
 * How an answer names whom it was read or run as, so the dashboard can keep
 * it visibly labelled: the operator (no RLS), a user (with the email and name
 * of their identity when it carries them), anonymous, or the service.
 */
export type ViewerLabel =
  | { kind: "operator" }
  | { kind: "user"; userId: string; email: string | null; name: string | null }
  | { kind: "anonymous" }
  | { kind: "service" };

/** A caller to run a procedure as, as the `run` body names it. */
export type RunAsInput =
  | { kind: "user"; userId: string }
  | { kind: "anonymous" }
  | { kind: "service" };

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function labelOf(identity: Identity): ViewerLabel {
  const user = identity.user !== null && typeof identity.user === "object" ? identity.user : {};
  const fields = user as Record<string, unknown>;
  return {
    kind: "user",
    userId: identity.userId,
    email: text(fields.email) ?? text(identity.email),
    name: text(fields.name) ?? text(identity.name),
  };
}

async function userIdentity(
  idOrEmail: string,
  lookup: IdentityLookup | undefined,
): Promise<Identity> {
  if (lookup === undefined) {
    throw new SvcError(
      "BAD_REQUEST",
      "Acting as a user needs an identity lookup: pass createAuthAdmin(auth) from @svc/auth as authAdmin. " +
        "The operator, anonymous and service views work without it.",
    );
  }
  const identity = await lookup(idOrEmail);
  // The same not-found as an unknown route: the answer says nothing about which users exist.
  if (identity === null) throw new SvcError("NOT_FOUND", "Not found.");
  return identity;
}

/**
 * Turns a browse's `asUser` into the viewer the shard applies: absent → the
 * operator; `anonymous`; `service`; anything else a user id or email, looked
 * up through `@svc/auth` (an unknown user is the generic 404).
 *
 * @example await resolveViewer("ann@example.com", lookup) // { viewer: { kind: "user", identity }, label: { kind: "user", … } }
 */
export async function resolveViewer(
  asUser: string | undefined,
  lookup: IdentityLookup | undefined,
): Promise<{ viewer: Viewer; label: ViewerLabel }> {
  if (asUser === undefined || asUser === "")
    return { viewer: { kind: "operator" }, label: { kind: "operator" } };
  if (asUser === "anonymous" || asUser === "service")
    return { viewer: { kind: asUser }, label: { kind: asUser } };
  const identity = await userIdentity(asUser, lookup);
  return { viewer: { kind: "user", identity }, label: labelOf(identity) };
}

/**
 * Turns a run's `as` into the caller the shard runs the procedure as.
 *
 * @example await resolveRunAs({ kind: "user", userId: "u1" }, lookup)
 */
export async function resolveRunAs(
  as: RunAsInput,
  lookup: IdentityLookup | undefined,
): Promise<{ as: RunAs; label: ViewerLabel }> {
  if (as.kind !== "user") return { as: { kind: as.kind }, label: { kind: as.kind } };
  const identity = await userIdentity(as.userId, lookup);
  return { as: { kind: "user", identity }, label: labelOf(identity) };
}
