import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 26, finding 7: the OpenAPI document's shard-key parameters promised
 * more than the server accepted (`a%01b`, 129 emoji). Here the document the
 * worker serves is the judge: a key is valid per its parameter schema if and
 * only if the server routes it (200) rather than refusing it (400).
 */

const ADMIN = { authorization: "Bearer test-admin-token-0123456789abcdef" };
type StringSchema = { type: string; minLength: number; maxLength: number; pattern: string };
let querySchema: StringSchema;
let headerSchema: StringSchema;

beforeAll(async () => {
  const response = await exports.default.fetch("http://svc.test/_svc/admin/openapi", {
    headers: ADMIN,
  });
  const document = (await response.json()) as {
    components: { parameters: Record<string, { schema: StringSchema }> };
  };
  querySchema = document.components.parameters.ShardKey!.schema;
  headerSchema = document.components.parameters.ShardKeyHeader!.schema;
});

/** JSON Schema's reading of these four keywords: lengths in code points, `pattern` as ECMA-262 with Unicode. */
function validPer(schema: StringSchema, key: string): boolean {
  const length = [...key].length;
  return (
    schema.type === "string" &&
    length >= schema.minLength &&
    length <= schema.maxLength &&
    new RegExp(schema.pattern, "u").test(key)
  );
}

function inQuery(key: string): Promise<Response> {
  return exports.default.fetch(
    `http://svc.test/_svc/rest/rest/inspect?shardKey=${encodeURIComponent(key)}`,
  );
}

function inHeader(key: string): Promise<Response> {
  return exports.default.fetch("http://svc.test/_svc/rest/rest/inspect", {
    headers: { "x-svc-shard-key": key },
  });
}

/**
 * 200 and routed to exactly `key` (or, for a `private-` key, the worker's
 * `shardAccess` refusal: 404, which runs only after the key passed every
 * check and touches no shard), or 400 BAD_REQUEST; anything else fails.
 */
async function accepted(response: Response, key: string): Promise<boolean> {
  const body = (await response.json()) as { shard?: string; code?: string };
  if (key.startsWith(REFUSED) && response.status === 404) return true;
  if (response.status === 200) {
    expect(body.shard).toBe(key);
    return true;
  }
  expect([response.status, body.code]).toEqual([400, "BAD_REQUEST"]);
  return false;
}

const emoji = "😀".repeat(129);
/** Keys the test worker's `shardAccess` refuses to anonymous callers: checked, yet no shard is created. */
const REFUSED = "private-";

describe("shard keys: the OpenAPI document and the server agree", () => {
  it.each([
    ["a%01b", "a\u0001b", false],
    ["DEL", "a\u007fb", false],
    ["129 emoji (258 UTF-16 units)", emoji, true],
    ["256 emoji", "😀".repeat(256), true],
    ["257 emoji", "😀".repeat(257), false],
    ["256 ASCII", "k".repeat(256), true],
    ["257 ASCII", "k".repeat(257), false],
    ["empty", "", false],
  ])("query parameter, %s", async (_name, key, valid) => {
    expect(validPer(querySchema, key)).toBe(valid);
    expect(await accepted(await inQuery(key), key)).toBe(valid);
  });

  it.each([
    ["printable ASCII with inner spaces", "room 42", true],
    ["a control character", "a\u0001b", false],
    ["a tab", "a\tb", false],
    ["latin-1 bytes", "caf\u00e9", false],
    ["256 ASCII", "h".repeat(256), true],
    ["257 ASCII", "h".repeat(257), false],
  ])("header, %s", async (_name, key, valid) => {
    expect(validPer(headerSchema, key)).toBe(valid);
    expect(await accepted(await inHeader(key), key)).toBe(valid);
  });

  // Code points from every plane, weighted towards the controls and the length bound
  // (the prefix is 8 of the 256), after the prefix that keeps the run from creating shards.
  const keyCharacter = fc.oneof(
    fc.constantFrom("\u0000", "\u0001", "\u001f", "\u007f", "\u0080", " ", "😀"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
  );
  const key = fc
    .oneof(
      fc.array(keyCharacter, { maxLength: 12 }).map((parts) => parts.join("")),
      fc
        .tuple(fc.integer({ min: 244, max: 252 }), keyCharacter)
        .map(([count, character]) => character.repeat(count)),
    )
    .map((suffix) => REFUSED + suffix);

  it("valid per the query parameter's schema ⇔ accepted in the query string", async () => {
    await fc.assert(
      fc.asyncProperty(key, async (k) => {
        expect(await accepted(await inQuery(k), k)).toBe(validPer(querySchema, k));
      }),
      { numRuns: 150 },
    );
  }, 30_000);

  it("valid per the header's schema ⇔ accepted in x-svc-shard-key", async () => {
    // What HTTP carries unchanged: no NUL/CR/LF, no space or tab at either end. (Non-ASCII
    // is the "latin-1 bytes" case above: workerd's fetch warns on each such header.)
    const headerCharacter = fc.oneof(
      fc.constantFrom("\u0001", "\u000b", "\u001f", "\u007f", " ", "\t"),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
    );
    const headerKey = fc
      .oneof(
        fc.array(headerCharacter, { maxLength: 12 }).map((parts) => parts.join("")),
        fc
          .tuple(fc.integer({ min: 244, max: 252 }), headerCharacter)
          .map(([count, character]) => character.repeat(count)),
      )
      .map((suffix) => REFUSED + suffix)
      .filter((k) => !/[\t ]$/.test(k));
    await fc.assert(
      fc.asyncProperty(headerKey, async (k) => {
        expect(await accepted(await inHeader(k), k)).toBe(validPer(headerSchema, k));
      }),
      { numRuns: 150 },
    );
  }, 30_000);
});
