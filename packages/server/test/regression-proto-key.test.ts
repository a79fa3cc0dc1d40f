import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpc } from "./rpc.ts";

// Found by the property test of the GET parser: `?__proto__=` replaced the
// arguments object's prototype instead of becoming a field.
describe("a __proto__ key is a plain (unexpected) field, never a prototype", () => {
  it("over REST GET", async () => {
    const response = await exports.default.fetch(
      "http://svc.test/_svc/rest/rest/inspect?__proto__=%7B%22name%22%3A1%7D",
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "args.__proto__", message: "unexpected field" }],
    });
  });

  it("over RPC with a JSON body", async () => {
    const response = await exports.default.fetch("http://svc.test/_svc/rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"path":"notes:add","args":{"text":"x","__proto__":{"text":5}}}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "args.__proto__" }],
    });
    expect(({} as Record<string, unknown>).text).toBeUndefined();
    expect((await rpc("notes:all", {})).status).toBe(200);
  });
});
