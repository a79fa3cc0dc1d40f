import { SvcError } from "../errors/svc-error.ts";
import { fromJsonValue } from "../values/json-codec.ts";
import { setOwn } from "../values/own-property.ts";
import { SHARD_KEY_PARAM } from "../worker/shard-key.ts";

/**
 * Arguments of a REST `GET` from the query string: each value is parsed as
 * JSON when it is valid JSON (numbers, booleans, arrays, objects, `null`),
 * otherwise kept as the string. `shardKey` is routing, never an argument. A
 * key given twice is refused rather than guessed at.
 *
 * @example argsFromQuery(new URLSearchParams("name=123&tag=a")) // { name: 123, tag: "a" }
 */
export function argsFromQuery(params: URLSearchParams): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const seen = new Set<string>();
  // One pass over the pairs (no `getAll` per key): this runs on every REST GET.
  params.forEach((value, key) => {
    if (key === SHARD_KEY_PARAM) return;
    if (seen.has(key))
      throw new SvcError(
        "BAD_REQUEST",
        `Query parameter ${JSON.stringify(key)} is given more than once.`,
      );
    seen.add(key);
    setOwn(args, key, parseLoose(value));
  });
  return args;
}

/** Text that can begin a JSON value (after optional whitespace). */
const MAY_BE_JSON = /^\s*[-0-9{["tfn]/;

function parseLoose(raw: string): unknown {
  // Most values are plain strings; skip the throwing parse for those that cannot be JSON.
  if (!MAY_BE_JSON.test(raw)) return raw;
  try {
    return fromJsonValue(JSON.parse(raw));
  } catch {
    return raw;
  }
}
