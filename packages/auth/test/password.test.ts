import { env } from "cloudflare:workers";
import { betterAuth } from "better-auth";
import { describe, expect, it } from "vitest";
import { createAuth, ensureMigrated, svcDatabaseAdapter } from "../src/index.ts";
import { NODE_PASSWORD, TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { freshEmail } from "./http.ts";

const PASSWORD_HELPER = "@better-auth/utils/dist/password";

describe("password hashing in the deploy bundle", () => {
  it("bundles better-auth's native node:crypto scrypt helper, not the pure-JS fallback", () => {
    const modules = env.BUNDLE_MODULES;
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.filter((path) => path.includes(PASSWORD_HELPER))).toEqual([
      expect.stringMatching(/@better-auth\/utils\/dist\/password\.node\.mjs$/),
    ]);
    expect(
      modules.filter((path) => path.includes("@noble/hashes") && path.includes("scrypt")),
    ).toEqual([]);
  });
});

describe("password hashes are interchangeable with plain better-auth", () => {
  const options = {
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    emailAndPassword: { enabled: true },
  };
  const svc = createAuth({ ...options, database: svcDatabaseAdapter(env.DB) });
  const plain = betterAuth({ ...options, database: env.DB });

  it("verifies a hash made by plain better-auth on Node", async () => {
    const { password } = await svc.$context;
    await expect(
      password.verify({ hash: env.NODE_PASSWORD_HASH, password: NODE_PASSWORD }),
    ).resolves.toBe(true);
    await expect(
      password.verify({ hash: env.NODE_PASSWORD_HASH, password: "wrong" }),
    ).resolves.toBe(false);
  });

  it.each([
    ["plain better-auth", "svc", plain, svc],
    ["svc", "plain better-auth", svc, plain],
  ])(
    "signs in under %2$s a user whose password %1$s hashed",
    async (_from, _to, signUpWith, signInWith) => {
      await ensureMigrated(svc);
      const email = freshEmail("interop");
      const password = "interoperable password";
      await signUpWith.api.signUpEmail({ body: { email, password, name: "Interop" } });
      const signedIn = await signInWith.api.signInEmail({ body: { email, password } });
      expect(signedIn.user.email).toBe(email);
      await expect(
        signInWith.api.signInEmail({ body: { email, password: "not it" } }),
      ).rejects.toMatchObject({ status: "UNAUTHORIZED" });
    },
  );
});
