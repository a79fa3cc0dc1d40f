import { describe, expect, it } from "vitest";
import { createAuthAdmin } from "../src/index.ts";
import { signUp } from "./admin-http.ts";
import { adminAuth } from "./fixture/admin.ts";
import { freshEmail } from "./http.ts";

/** The data studio views tables and runs procedures as a user through this lookup (issue 28). */
describe("createAuthAdmin().lookupIdentity", () => {
  const surface = createAuthAdmin(adminAuth);

  it("finds a user by id or email and answers sessionIdentity's shape without a session", async () => {
    const email = freshEmail("lookup");
    const id = await signUp(email, "a long password 1", "Ann Lookup");
    const byId = await surface.lookupIdentity?.(id);
    expect(byId).toMatchObject({
      userId: id,
      sessionId: "",
      session: {},
      user: { id, email, name: "Ann Lookup", emailVerified: false },
    });
    expect(typeof (byId?.user as { createdAt?: unknown } | undefined)?.createdAt).toBe("string");
    expect(await surface.lookupIdentity?.(email.toUpperCase())).toEqual(byId);
  });

  it("answers null for nobody, and never a credential", async () => {
    expect(await surface.lookupIdentity?.("no-such-user-id")).toBeNull();
    expect(await surface.lookupIdentity?.(freshEmail("nobody"))).toBeNull();
    const email = freshEmail("secret");
    const id = await signUp(email, "a long password 2");
    const text = JSON.stringify(await surface.lookupIdentity?.(id));
    expect(text).not.toMatch(/password|token|hash/i);
  });
});
