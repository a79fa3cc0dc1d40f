import type { AdminAnswer, AdminCall } from "../handler.ts";
import { type Row, toAccount, toPasskey, toSession } from "../records.ts";
import { selectUser, userOf } from "./load.ts";
import { readableProfile, selectProfile } from "./profile.ts";
import { accountsOf, passkeysOf, sessionsOf } from "./related.ts";

/**
 * `GET users/:id`: the user with their linked accounts, live sessions and
 * (with the passkey surface) passkeys, read in one D1 batch.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users/u1 → { user, accounts, sessions, passkeys? }
 * ```
 */
export async function getUser(call: AdminCall<"getUser">): Promise<AdminAnswer<"getUser">> {
  const { environment } = call.ctx;
  const id = call.params.id;
  const withPasskeys = environment.capabilities.passkeys;
  const results = await environment.db.batch<Row>([
    selectUser(environment, id),
    selectProfile(environment, id),
    accountsOf(environment, id),
    sessionsOf(environment, id),
    ...(withPasskeys ? [passkeysOf(environment, id)] : []),
  ]);
  const [user, profile, accounts, sessions, passkeys] = results;
  return {
    user: userOf(user, id),
    profile: readableProfile(environment.capabilities.userFields, profile?.results[0] ?? {}),
    accounts: (accounts?.results ?? []).map(toAccount),
    sessions: (sessions?.results ?? []).map(toSession),
    ...(withPasskeys ? { passkeys: (passkeys?.results ?? []).map(toPasskey) } : {}),
  };
}

/**
 * The rows of one per-user list, after checking the user exists (one batch):
 * `GET users/:id/sessions`, `…/accounts`, `…/passkeys`.
 */
async function relatedRows(
  call: AdminCall<"listSessions" | "listAccounts" | "listPasskeys">,
  statement: typeof sessionsOf,
): Promise<Row[]> {
  const { environment } = call.ctx;
  const id = call.params.id;
  const [user, rows] = await environment.db.batch<Row>([
    selectUser(environment, id),
    statement(environment, id),
  ]);
  userOf(user, id);
  return rows?.results ?? [];
}

/** `GET users/:id/sessions`. */
export async function listSessions(
  call: AdminCall<"listSessions">,
): Promise<AdminAnswer<"listSessions">> {
  return { sessions: (await relatedRows(call, sessionsOf)).map(toSession) };
}

/** `GET users/:id/accounts`. */
export async function listAccounts(
  call: AdminCall<"listAccounts">,
): Promise<AdminAnswer<"listAccounts">> {
  return { accounts: (await relatedRows(call, accountsOf)).map(toAccount) };
}

/** `GET users/:id/passkeys`. */
export async function listPasskeys(
  call: AdminCall<"listPasskeys">,
): Promise<AdminAnswer<"listPasskeys">> {
  return { passkeys: (await relatedRows(call, passkeysOf)).map(toPasskey) };
}
