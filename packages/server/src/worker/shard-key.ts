import { SvcError } from "../errors/svc-error.ts";

/** Shard of calls that name none. */
export const DEFAULT_SHARD = "default";
/** Query parameter naming the shard; wins over the header. Never passed to handlers. */
export const SHARD_KEY_PARAM = "shardKey";
/** Request header naming the shard. */
export const SHARD_KEY_HEADER = "x-svc-shard-key";
const MAX_SHARD_KEY_LENGTH = 256;

/**
 * The shard a request routes to: the `shardKey` query parameter, else the
 * `x-svc-shard-key` header, else `default`. Empty, over 256 characters, with
 * control characters, or given twice: `BAD_REQUEST`.
 */
export function shardKeyOf(request: Request, url: URL): string {
  const fromQuery = url.searchParams.getAll(SHARD_KEY_PARAM);
  if (fromQuery.length > 1) throw new SvcError("BAD_REQUEST", "shardKey is given more than once.");
  const key = fromQuery[0] ?? request.headers.get(SHARD_KEY_HEADER);
  if (key === null) return DEFAULT_SHARD;
  return checkShardKey(key);
}

/**
 * Returns `key` when it can name a shard; else `BAD_REQUEST` (empty, over 256
 * characters, or with control characters).
 *
 * @example checkShardKey("room-42") // "room-42"
 */
export function checkShardKey(key: string): string {
  if (key.length === 0) throw new SvcError("BAD_REQUEST", "The shard key is empty.");
  if (key.length > MAX_SHARD_KEY_LENGTH) {
    throw new SvcError(
      "BAD_REQUEST",
      `The shard key is longer than ${MAX_SHARD_KEY_LENGTH} characters.`,
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key))
    throw new SvcError("BAD_REQUEST", "The shard key contains control characters.");
  return key;
}
