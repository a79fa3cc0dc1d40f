import { parseJson, stringifyJson } from "@svc/server/json";

/**
 * A value as it arrives on the other side of svc's RPC transport: encoded
 * with svc's JSON codec and decoded again, as the client and the worker do.
 * So `undefined` fields vanish and a `Date` or any class instance arrives as
 * its own fields, in a test exactly as in production (a harness that passed
 * values through untouched would pass code that breaks there).
 *
 * @example overTheWire({ at: undefined, n: 1n }) // { n: 1n }
 */
export function overTheWire<T>(value: T): T {
  return parseJson(stringifyJson(value)) as T;
}
