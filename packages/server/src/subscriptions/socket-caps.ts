import { SvcError } from "../errors/svc-error.ts";
import { problemResponse } from "../http/problem-response.ts";
import { DEFAULT_SOCKET_LIMITS, type ResolvedSocketLimits } from "../limits/socket-limits.ts";
import { hexOf } from "../values/hex.ts";
import type { SocketGrant } from "./protocol.ts";

/** What a socket's hibernation attachment holds: its id and when its authority ends. */
export interface SocketAttachment {
  id: string;
  until: number;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return hexOf(digest);
}

/**
 * The hibernation tags of a socket: one for its caller's address, one for
 * its user when signed in. The runtime keeps tags with the socket through
 * hibernation, so `getWebSockets(tag)` counts the open sockets of an address
 * or a user exactly, with nothing stored. Hashed: a tag holds at most 256
 * characters and a user id may be longer.
 *
 * @example await socketTags(grant) // ["ip:9f86…", "user:2c26…"]
 */
export async function socketTags(grant: SocketGrant): Promise<{ ip: string; user?: string }> {
  const ip = `ip:${await sha256Hex(grant.address ?? "anonymous")}`;
  const userId = grant.identity?.userId;
  return typeof userId === "string" ? { ip, user: `user:${await sha256Hex(userId)}` } : { ip };
}

/** The limits a socket was granted; a bound its grant predates (or all of them) is the default. */
export function limitsOf(grant: SocketGrant): ResolvedSocketLimits {
  return { ...DEFAULT_SOCKET_LIMITS, ...grant.limits };
}

/**
 * Refuses a new socket when its shard already holds `perIp` sockets of its
 * address, `perUser` of its user or `perShard` in all: `429 RATE_LIMITED` problem details whose
 * `Retry-After` is when the oldest of those sockets loses its authority
 * (the shard closes it then). `undefined` admits it.
 *
 * @example
 * ```ts
 * const refusal = refuseOverCap(state, await socketTags(grant), limitsOf(grant));
 * if (refusal) return refusal;
 * ```
 */
export function refuseOverCap(
  state: DurableObjectState,
  tags: { ip: string; user?: string },
  limits: ResolvedSocketLimits,
): Response | undefined {
  const caps: [string | null | undefined, number, string][] = [
    [null, limits.perShard, `At most ${limits.perShard} open subscription sockets on a shard.`],
    [
      tags.ip,
      limits.perIp,
      `At most ${limits.perIp} open subscription sockets per address on a shard.`,
    ],
    [
      tags.user,
      limits.perUser,
      `At most ${limits.perUser} open subscription sockets per user on a shard.`,
    ],
  ];
  for (const [tag, cap, message] of caps) {
    if (tag === undefined) continue;
    const open = tag === null ? state.getWebSockets() : state.getWebSockets(tag);
    if (open.length < cap) continue;
    return problemResponse(
      new SvcError("RATE_LIMITED", message, {
        headers: { "retry-after": String(secondsUntilOneEnds(open)) },
      }),
    );
  }
  return undefined;
}

function secondsUntilOneEnds(sockets: WebSocket[]): number {
  let earliest = Number.POSITIVE_INFINITY;
  for (const ws of sockets) {
    const until = (ws.deserializeAttachment() as Partial<SocketAttachment> | null)?.until;
    if (typeof until === "number") earliest = Math.min(earliest, until);
  }
  const seconds = Math.ceil((earliest - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.max(1, seconds) : 1;
}
