import path from "node:path";
import { deployBundle } from "@svc/cli";
import { describe, expect, it } from "vitest";

const CONFIG = path.resolve(import.meta.dirname, "../../wrangler.jsonc");

describe("the example app's deploy bundle", () => {
  it("hashes passwords with better-auth's native node:crypto scrypt, not the pure-JS fallback", async () => {
    const { modules } = await deployBundle(CONFIG);
    const helpers = modules.filter((module) => module.includes("@better-auth/utils/dist/password"));
    expect(helpers).toEqual([expect.stringMatching(/password\.node\.mjs$/)]);
    expect(
      modules.filter((module) => module.includes("@noble/hashes") && module.includes("scrypt")),
    ).toEqual([]);
  }, 60_000);
});
