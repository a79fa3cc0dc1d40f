import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SvcError, v } from "../src/index.ts";
import { argsFromQuery } from "../src/rest/query-args.ts";
import { fromJsonValue, parseJson, stringifyJson, toJsonValue } from "../src/values/json-codec.ts";
import type { AnyValidator, Issue } from "../src/values/validator.ts";

const check = (validator: AnyValidator, value: unknown) => {
  const issues: Issue[] = [];
  validator.check(value, { path: [], issues });
  return issues;
};

/** Finite doubles as JSON carries them (JSON has no -0: it arrives as 0, see docs/values.md). */
const jsonDouble = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .map((n) => (Object.is(n, -0) ? 0 : n));

/** Arbitrary svc values: JSON plus bigints (int64 range) and bytes. */
const svcValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    jsonDouble,
    fc.boolean(),
    fc.constant(null),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.uint8Array({ maxLength: 16 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(
      fc.string().filter((key) => key !== "__proto__"),
      tie("value"),
      { maxKeys: 4 },
    ),
  ),
})).value;

describe("validators never throw and agree with their own types", () => {
  const validators: [string, AnyValidator][] = [
    ["string", v.string()],
    ["number", v.number()],
    ["int64", v.int64()],
    ["bytes", v.bytes()],
    ["object", v.object({ a: v.string(), b: v.optional(v.array(v.number())) })],
    ["record", v.record(v.union(v.string(), v.null()))],
    ["union", v.union(v.literal("x"), v.object({ k: v.boolean() }))],
    ["nested", v.array(v.object({ items: v.array(v.object({ name: v.string() })) }))],
  ];
  it.each(validators)(
    "%s: check() returns issues instead of throwing, for any value",
    (_name, validator) => {
      fc.assert(
        fc.property(fc.oneof(svcValue, fc.anything()), (value) => {
          const issues = check(validator, value);
          expect(Array.isArray(issues)).toBe(true);
          const standard = validator["~standard"].validate(value);
          expect("issues" in standard && standard.issues !== undefined).toBe(issues.length > 0);
        }),
        { numRuns: 300 },
      );
    },
  );

  it("accepts every value it describes (object of strings and numbers)", () => {
    const validator = v.object({
      name: v.string(),
      tags: v.array(v.string()),
      n: v.optional(v.number()),
    });
    fc.assert(
      fc.property(
        fc.record({
          name: fc.string(),
          tags: fc.array(fc.string()),
          n: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }),
        }),
        (value) => {
          expect(check(validator, value)).toEqual([]);
        },
      ),
    );
  });
});

describe("the JSON codec", () => {
  it("round-trips every svc value", () => {
    fc.assert(
      fc.property(svcValue, (value) => {
        const expected = toJsonValue(value);
        expect(toJsonValue(parseJson(stringifyJson(value)))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the REST GET argument parser", () => {
  it("turns any query string into an object or a BAD_REQUEST, never anything else", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 8 }), (pairs) => {
        const params = new URLSearchParams(pairs);
        try {
          const args = argsFromQuery(params);
          expect(typeof args).toBe("object");
          expect(Object.keys(args)).not.toContain("shardKey");
        } catch (error) {
          expect(error).toBeInstanceOf(SvcError);
          expect((error as SvcError).code).toBe("BAD_REQUEST");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("parses valid JSON values and keeps everything else verbatim", () => {
    fc.assert(
      fc.property(
        fc.string().filter((key) => key !== "shardKey" && key !== ""),
        fc.oneof(fc.json(), fc.string()),
        (key, raw) => {
          const args = argsFromQuery(new URLSearchParams([[key, raw]]));
          let expected: unknown;
          try {
            expected = fromJsonValue(JSON.parse(raw));
          } catch {
            expected = raw;
          }
          expect(args[key]).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
