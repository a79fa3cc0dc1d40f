import { SvcError } from "../errors/svc-error.ts";
import { codePointLength } from "../values/code-points.ts";
import { queryPairs } from "./query-pairs.ts";

/** Shard of calls that name none. */
export const DEFAULT_SHARD = "default";
/** Query parameter naming the shard; wins over the header. Never passed to handlers. */
export const SHARD_KEY_PARAM = "shardKey";
/** Request header naming the shard. */
export const SHARD_KEY_HEADER = "x-svc-shard-key";
/** Longest shard key, in Unicode code points (the unit of JSON Schema's `maxLength`). */
export const MAX_SHARD_KEY_LENGTH = 256;

/**
 * What a shard key may hold, as the ECMA-262 source JSON Schema's `pattern`
 * takes: any characters but the C0 controls and DEL. The server tests keys
 * with this very source, and the OpenAPI document publishes it.
 */
export const SHARD_KEY_PATTERN = "^[^\\u0000-\\u001f\\u007f]*$";
/**
 * What the `x-svc-shard-key` header may hold: printable ASCII, no space at
 * either end (HTTP strips it before any server sees it). Header values are
 * bytes, not text: a non-ASCII key goes in the query parameter, which is UTF-8.
 */
export const SHARD_KEY_HEADER_PATTERN = "^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$";

const allowedCharacters = new RegExp(SHARD_KEY_PATTERN, "u");
const nonAscii = /[^\x20-\x7e]/;

/**
 * JSON Schemas of the two places a shard key travels, exactly what
 * {@link shardKeyOf} accepts: the OpenAPI document publishes these.
 *
 * @example
 * ```ts
 * parameters.ShardKey = { name: SHARD_KEY_PARAM, in: "query", schema: SHARD_KEY_SCHEMAS.query };
 * ```
 */
export const SHARD_KEY_SCHEMAS = {
  query: {
    type: "string",
    minLength: 1,
    maxLength: MAX_SHARD_KEY_LENGTH,
    pattern: SHARD_KEY_PATTERN,
  },
  header: {
    type: "string",
    minLength: 1,
    maxLength: MAX_SHARD_KEY_LENGTH,
    pattern: SHARD_KEY_HEADER_PATTERN,
  },
} as const;

/**
 * The shard a request routes to: the `shardKey` query parameter, else the
 * `x-svc-shard-key` header, else `default`. Empty, over 256 code points,
 * with control characters, given twice, or a header with non-ASCII bytes:
 * `BAD_REQUEST`.
 *
 * @example shardKeyOf(request, new URL(request.url)) // "room-1" for ?shardKey=room-1
 */
export function shardKeyOf(request: Request, url: URL): string {
  const pairs = queryPairs(url);
  let fromQuery: string | undefined;
  for (let index = 0; index < pairs.length; index += 2) {
    if (pairs[index] !== SHARD_KEY_PARAM) continue;
    if (fromQuery !== undefined)
      throw new SvcError("BAD_REQUEST", "shardKey is given more than once.");
    fromQuery = pairs[index + 1];
  }
  if (fromQuery !== undefined) return checkShardKey(fromQuery);
  const fromHeader = request.headers.get(SHARD_KEY_HEADER);
  if (fromHeader === null) return DEFAULT_SHARD;
  const key = checkShardKey(fromHeader);
  if (nonAscii.test(key)) {
    throw new SvcError(
      "BAD_REQUEST",
      `The ${SHARD_KEY_HEADER} header carries printable ASCII only; send other keys in the shardKey query parameter.`,
    );
  }
  return key;
}

/**
 * Returns `key` when it can name a shard; else `BAD_REQUEST` (empty, over 256
 * code points, or with control characters).
 *
 * @example checkShardKey("room-42") // "room-42"
 */
export function checkShardKey(key: string): string {
  if (key.length === 0) throw new SvcError("BAD_REQUEST", "The shard key is empty.");
  if (codePointLength(key, MAX_SHARD_KEY_LENGTH) > MAX_SHARD_KEY_LENGTH) {
    throw new SvcError(
      "BAD_REQUEST",
      `The shard key is longer than ${MAX_SHARD_KEY_LENGTH} characters (Unicode code points).`,
    );
  }
  if (!allowedCharacters.test(key))
    throw new SvcError("BAD_REQUEST", "The shard key contains control characters.");
  return key;
}
