import type { ApiKeyCaller } from "../model/api-key.ts";
import type { Identity } from "../model/identity.ts";

/**
 * What a shard asks, while a socket lives, of the worker that accepted it:
 * whether the socket's credential still stands (a revoked key, a ban or a
 * revoked session must stop a socket within a second, as they stop REST),
 * and whether an API key may spend one more call on a subscription (the
 * key's bucket covers sockets as it covers RPC and REST).
 *
 * @example
 * ```ts
 * const authority = socketAuthorityOf(grant.authority);
 * if ((await authority?.resolve(credentials)) === null) ws.close(CLOSE.REAUTHENTICATE, "revoked");
 * ```
 */
export interface SocketAuthority {
  /** The identity the credential headers resolve to now; `null` (or a throw) when they no longer do. */
  resolve(headers: Record<string, string>): Promise<Identity | null>;
  /** Spends one unit of the key's bucket for `path`; throws `RATE_LIMITED` (429) once it is spent. */
  spend(apiKey: ApiKeyCaller, path: string): Promise<void>;
}

const authorities: SocketAuthority[] = [];

/**
 * Registers a worker's {@link SocketAuthority} and answers the number a
 * socket grant names it by. A number, not the object: the grant crosses
 * into the shard as data. The shard class lives in the worker's own script,
 * whose module runs `createWorker` in the same order in every isolate, so
 * the number names the same worker wherever the shard runs.
 *
 * @example const authority = registerSocketAuthority({ resolve, spend }); // 0
 */
export function registerSocketAuthority(authority: SocketAuthority): number {
  authorities.push(authority);
  return authorities.length - 1;
}

/**
 * The authority a grant names, or `undefined` (a grant from before
 * authorities, or from a worker this isolate has not built).
 *
 * @example socketAuthorityOf(grant.authority)?.spend(apiKey, "messages:list")
 */
export function socketAuthorityOf(index: number | undefined): SocketAuthority | undefined {
  return index === undefined ? undefined : authorities[index];
}
