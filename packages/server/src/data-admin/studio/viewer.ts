import { SvcError } from "../../errors/svc-error.ts";
import type { Identity } from "../../model/identity.ts";
import type { RunAs, Viewer } from "../../studio/shard-protocol.ts";

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
  // Named, so a run or a view says it was the user that was missing (the operator may list users anyway).
  if (identity === null)
    throw new SvcError("NOT_FOUND", `No user has the id or email ${idOrEmail}.`);
  return identity;
}

/**
 * Refuses to act as a user who is banned now (better-auth's admin plugin
 * sets `banned` and `banExpires` on the user), unless the operator confirmed
 * it: reading or running "as" them would do what the ban stops them doing.
 */
function refuseBanned(identity: Identity, confirmed: boolean, confirmation: string): void {
  const user = (identity.user ?? {}) as Record<string, unknown>;
  if (confirmed || user.banned !== true) return;
  const expires = typeof user.banExpires === "string" ? Date.parse(user.banExpires) : Number.NaN;
  if (Number.isFinite(expires) && expires <= Date.now()) return;
  const until = Number.isFinite(expires) ? ` until ${new Date(expires).toISOString()}` : "";
  throw new SvcError(
    "FORBIDDEN",
    `User ${identity.userId} is banned${until}; acting as them needs ${confirmation}.`,
  );
}

/**
 * Turns a browse's `asUser` into the viewer the shard applies: absent → the
 * operator; `anonymous`; `service`; anything else a user id or email, looked
 * up through `@svc/auth` (an unknown user is the generic 404); a banned
 * user is `403` unless `confirmBanned` (the operator's `confirmBanned=true`).
 *
 * @example await resolveViewer("ann@example.com", lookup) // { viewer: { kind: "user", identity }, label: { kind: "user", … } }
 */
export async function resolveViewer(
  asUser: string | undefined,
  lookup: IdentityLookup | undefined,
  confirmBanned = false,
): Promise<{ viewer: Viewer; label: ViewerLabel }> {
  if (asUser === undefined) return { viewer: { kind: "operator" }, label: { kind: "operator" } };
  if (asUser === "anonymous" || asUser === "service")
    return { viewer: { kind: asUser }, label: { kind: asUser } };
  const identity = await userIdentity(asUser, lookup);
  refuseBanned(identity, confirmBanned, "confirmBanned=true");
  return { viewer: { kind: "user", identity }, label: labelOf(identity) };
}

/**
 * Turns a run's `as` into the caller the shard runs the procedure as; a
 * banned user is `403` unless the body says `confirmBanned: true`.
 *
 * @example await resolveRunAs({ kind: "user", userId: "u1" }, lookup)
 */
export async function resolveRunAs(
  as: RunAsInput,
  lookup: IdentityLookup | undefined,
  confirmBanned = false,
): Promise<{ as: RunAs; label: ViewerLabel }> {
  if (as.kind !== "user") return { as: { kind: as.kind }, label: { kind: as.kind } };
  const identity = await userIdentity(as.userId, lookup);
  refuseBanned(identity, confirmBanned, '"confirmBanned": true');
  return { as: { kind: "user", identity }, label: labelOf(identity) };
}
