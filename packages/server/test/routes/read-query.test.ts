import { describe, expect, it } from "vitest";
import { text } from "../../src/routes/contract/fields.ts";
import { readQuery } from "../../src/routes/read-query.ts";
import { v } from "../../src/values/index.ts";

/**
 * A required `text()` query parameter given empty (`?id=`) read as absent
 * but escaped the required check, so the handler got `undefined` and the
 * route answered 500 (found by the admin OpenAPI property test on
 * `GET data/shards/:key/backup?id=`).
 */
describe("readQuery", () => {
  const declaration = v.object({ id: text(100), search: v.optional(text(20)) });

  it("refuses a required text parameter given empty, naming it", () => {
    for (const query of ["?id=", "?id=%20%20"]) {
      let thrown: unknown;
      try {
        readQuery(new URL(`https://app.test/x${query}`), declaration);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        code: "VALIDATION_FAILED",
        issues: [{ path: "query.id", message: "required parameter is empty" }],
      });
    }
  });

  it("reads an empty optional text parameter as absent, and a given one trimmed", () => {
    expect(readQuery(new URL("https://app.test/x?id=%20b1%20&search="), declaration)).toEqual({
      id: "b1",
    });
  });
});
