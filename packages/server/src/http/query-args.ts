import { SvcError } from "../errors/svc-error.ts";
import { pairsOf, queryPairs } from "../model/query-pairs.ts";
import { SHARD_KEY_PARAM } from "../model/shard-key.ts";
import { fromJsonValue } from "../values/json-codec.ts";
import { setOwn } from "../values/own-property.ts";
import type { AnyValidator, Issue } from "../values/validator.ts";

/**
 * Arguments of a REST `GET` from the query string: each value is parsed as
 * JSON when it is valid JSON (numbers, booleans, arrays, objects, `null`),
 * otherwise kept as the string — except where the argument's own validator
 * (from `fields`, the procedure's `.input()` shape) refuses the parsed value
 * and accepts the raw text, or is a string one and the JSON is no string:
 * then the text is the value. So `?name=123` is the string "123" for a
 * string argument and the number 123 for a number one,
 * and a client generated from the OpenAPI document, which sends strings
 * as they are, is understood. `shardKey` is routing, never an argument. A key
 * given twice is refused rather than guessed at.
 *
 * @example argsFromQuery(new URLSearchParams("name=123&tag=a")) // { name: 123, tag: "a" }
 */
export function argsFromQuery(
  query: URL | URLSearchParams,
  fields: Readonly<Record<string, AnyValidator>> = {},
): Record<string, unknown> {
  // A request's URL is split in JavaScript where it needs no decoding (`queryPairs`): this
  // runs on every REST GET, and the runtime's parameters object cost a callback per pair.
  const pairs = query instanceof URL ? queryPairs(query) : pairsOf(query);
  const args: Record<string, unknown> = {};
  for (let index = 0; index < pairs.length; index += 2) {
    const key = pairs[index]!;
    if (key === SHARD_KEY_PARAM) continue;
    // Every key read so far is an own key of `args`: `args` itself tells a repeated one.
    if (Object.hasOwn(args, key))
      throw new SvcError(
        "BAD_REQUEST",
        `Query parameter ${JSON.stringify(key)} is given more than once.`,
      );
    const value = pairs[index + 1]!;
    const parsed = parseLoose(value);
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const keepText =
      parsed !== value &&
      field !== undefined &&
      // A text argument never takes a parsed number or array: `?code=42` is the text "42",
      // and a too-short `?name=12` is refused for its length, as over POST, not for its type.
      (isText(field, parsed) || (!accepts(field, parsed) && accepts(field, value)));
    setOwn(args, key, keepText ? value : parsed);
  }
  return args;
}

function isText(validator: AnyValidator, parsed: unknown): boolean {
  return (validator.kind === "string" || validator.kind === "id") && typeof parsed !== "string";
}

function accepts(validator: AnyValidator, value: unknown): boolean {
  const issues: Issue[] = [];
  validator.check(value, { path: [], issues });
  return issues.length === 0;
}

/** Text that can begin a JSON value (after optional whitespace). */
const MAY_BE_JSON = /^\s*[-0-9{["tfn]/;
/** Text whose JSON value, if it has one, is a literal or a number (JSON's whitespace around). */
const LITERAL_OR_NUMBER_START = /^[\t\n\r ]*[-0-9tfn]/;
/** The whole of a JSON text that is a literal or a number, per JSON's grammar. */
const LITERAL_OR_NUMBER =
  /^[\t\n\r ]*(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)[\t\n\r ]*$/;

function parseLoose(raw: string): unknown {
  // Most values are plain strings; skip the throwing parse for those that cannot be JSON.
  if (!MAY_BE_JSON.test(raw)) return raw;
  // An id like `tasks_…` or `notes_…`, a date, a word: text that starts like a literal or a number
  // is JSON only if it is one whole, which the grammar tells without a parse that throws (an
  // exception, with its stack, per such argument).
  if (LITERAL_OR_NUMBER_START.test(raw) && !LITERAL_OR_NUMBER.test(raw)) return raw;
  try {
    return fromJsonValue(JSON.parse(raw));
  } catch {
    return raw;
  }
}
