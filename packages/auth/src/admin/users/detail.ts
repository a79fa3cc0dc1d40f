import { json } from "../http.ts";
import { type Row, toAccount, toPasskey, toSession } from "../records.ts";
import type { AdminCall, ParamsOf } from "../router.ts";
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
export async function getUser(call: AdminCall<ParamsOf<"users/:id">>): Promise<Response> {
  const { environment } = call;
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
  return json({
    user: userOf(user, id),
    profile: readableProfile(environment.capabilities.userFields, profile?.results[0] ?? {}),
    accounts: (accounts?.results ?? []).map(toAccount),
    sessions: (sessions?.results ?? []).map(toSession),
    ...(withPasskeys ? { passkeys: (passkeys?.results ?? []).map(toPasskey) } : {}),
  });
}

/**
 * `GET users/:id/sessions`, `GET users/:id/accounts`, `GET users/:id/passkeys`:
 * one list each, after checking the user exists (one batch).
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users/u1/sessions → { sessions: Session[] }
 * ```
 */
export function listRelated(kind: "sessions" | "accounts" | "passkeys") {
  const statement = { sessions: sessionsOf, accounts: accountsOf, passkeys: passkeysOf }[kind];
  const shape: (row: Row) => object = {
    sessions: toSession,
    accounts: toAccount,
    passkeys: toPasskey,
  }[kind];
  return async (call: AdminCall<ParamsOf<"users/:id">>): Promise<Response> => {
    const { environment } = call;
    const id = call.params.id;
    const [user, rows] = await environment.db.batch<Row>([
      selectUser(environment, id),
      statement(environment, id),
    ]);
    userOf(user, id);
    return json({ [kind]: (rows?.results ?? []).map(shape) });
  };
}
