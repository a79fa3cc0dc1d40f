import { Validator as JsonSchemaValidator } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsFromQuery } from "../src/http/query-args.ts";
import { SvcError, v } from "../src/index.ts";
import { pairsOf, queryPairs } from "../src/model/query-pairs.ts";
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
    ["bounded string", v.string({ minLength: 1, maxLength: 5, pattern: /^[a-z😀]*$/u })],
    ["bounded number", v.number({ integer: true, min: -3, max: 7 })],
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

/**
 * `v.*` bounds against an independent JSON Schema 2020-12 validator run over
 * the schema each validator emits: a JSON value passes the validator exactly
 * when it passes its published schema (the OpenAPI document's promise).
 */
describe("validators accept exactly what their JSON Schema describes", () => {
  const describedBy = (validator: AnyValidator, value: unknown) =>
    new JsonSchemaValidator(validator.toJsonSchema() as never, "2020-12", false).validate(value)
      .valid;
  const defined = <T extends object>(options: T) =>
    Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

  const boundedString = fc
    .record({
      minLength: maybe(fc.integer({ min: 0, max: 4 })),
      maxLength: maybe(fc.integer({ min: 0, max: 6 })),
      pattern: maybe(
        fc.constantFrom(
          "^[a-z]*$",
          "\\d",
          "^(?:😀|x)+$",
          "^\\p{L}+$",
          "[^\\u0000-\\u001f]",
          "^.{2}$",
        ),
      ),
    })
    .filter(
      (o) => o.minLength === undefined || o.maxLength === undefined || o.minLength <= o.maxLength,
    )
    .map((options) => v.string(defined(options)));
  const boundedNumber = fc
    .record({
      min: maybe(
        fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true })),
      ),
      max: maybe(
        fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true })),
      ),
      integer: maybe(fc.boolean()),
    })
    .filter((o) => o.min === undefined || o.max === undefined || o.min <= o.max)
    .map((options) => v.number(defined(options)));

  /** Text from an alphabet that meets every bound: letters, digits, an emoji, a lone surrogate, controls. */
  const text = fc
    .array(fc.constantFrom("a", "z", "é", "7", "😀", "x", "\ud800", "\u0001", " ", "Z"), {
      maxLength: 8,
    })
    .map((parts) => parts.join(""));
  const number = fc.oneof(
    fc.integer({ min: -8, max: 8 }),
    jsonDouble.filter((n) => Math.abs(n) < 10),
    jsonDouble,
  );

  const leafValidator = fc.oneof(
    boundedString,
    boundedNumber,
    fc.constant(v.boolean()),
    fc.constant(v.null()),
  );
  const validator: fc.Arbitrary<AnyValidator> = fc.letrec<{ node: AnyValidator }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leafValidator,
      tie("node").map((item) => v.array(item)),
      fc
        .dictionary(fc.constantFrom("a", "b", "c"), fc.tuple(tie("node"), fc.boolean()), {
          maxKeys: 3,
        })
        .map((shape) =>
          v.object(
            Object.fromEntries(
              Object.entries(shape).map(([key, [field, optional]]) => [
                key,
                optional ? v.optional(field) : field,
              ]),
            ),
          ),
        ),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => v.union(a, b)),
      tie("node").map((values) => v.record(values)),
    ),
  })).node;
  const jsonValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      text,
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("value"), { maxKeys: 3 }),
    ),
  })).value;

  it("string and number bounds, over values near them", () => {
    fc.assert(
      fc.property(
        fc.oneof(boundedString, boundedNumber),
        fc.oneof(text, number),
        (bounded, value) => {
          expect(check(bounded, value).length === 0).toBe(describedBy(bounded, value));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("any composition of them, over any JSON value", () => {
    fc.assert(
      fc.property(validator, jsonValue, (composed, value) => {
        expect(check(composed, value).length === 0).toBe(describedBy(composed, value));
      }),
      { numRuns: 500 },
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

describe("the REST GET argument parser, on text that starts like a literal or a number", () => {
  /** What a value is: its JSON value when the whole text is JSON, else the text itself. */
  const reference = (raw: string): unknown => {
    try {
      return fromJsonValue(JSON.parse(raw));
    } catch {
      return raw;
    }
  };
  const lookalike = fc
    .array(
      fc.constantFrom(
        ..."tfn-+.eE0123456789 \t\n\r_x\u00a0".split(""),
        "true",
        "false",
        "null",
        "tasks_",
        "notes_",
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join(""));

  it("reads each exactly as JSON.parse would, whole or not at all", () => {
    fc.assert(
      fc.property(lookalike, (raw) => {
        expect(argsFromQuery(new URLSearchParams([["value", raw]])).value).toEqual(reference(raw));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    "tasks_0123456789abcdefghijklmnop",
    "nullable",
    "falsehood",
    "2024-01-01",
    "-",
    "1e",
    "01",
    " true ",
    "\ttrue\n",
    "-0.5e+3",
    "\u00a0true",
  ])("reads %j as JSON.parse would", (raw) => {
    expect(argsFromQuery(new URLSearchParams([["value", raw]])).value).toEqual(reference(raw));
  });
});

describe("the query string splitter", () => {
  /** Query text as clients send it: the delimiters, escapes and plain characters, mixed. */
  const queryText = fc
    .array(
      fc.oneof(
        fc.constantFrom("&", "=", "+", "%", "%20", "%2", "%zz", "%C3%A9", "?", "#", " ", "é", "😀"),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));

  it("lists exactly the pairs URLSearchParams lists, for any query", () => {
    fc.assert(
      fc.property(queryText, (text) => {
        const url = new URL(`https://svc.test/_svc/rest/rows/get?${text}`);
        expect(queryPairs(url)).toEqual(pairsOf(url.searchParams));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a GET's arguments from a URL as from its parameters", () => {
    fc.assert(
      fc.property(queryText, (text) => {
        const url = new URL(`https://svc.test/_svc/rest/rows/get?${text}`);
        const outcome = (read: () => unknown) => {
          try {
            return { args: read() };
          } catch (error) {
            return { error: (error as SvcError).message };
          }
        };
        expect(outcome(() => argsFromQuery(url))).toEqual(
          outcome(() => argsFromQuery(url.searchParams)),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
