import { describe, expect, it } from "vitest";
import { createAdminGate } from "../src/worker/admin-gate.ts";

const alice = "alice-token-0123456789abcdef0123456789";
const ci = "ci-token-0123456789abcdef0123456789abcd";
const request = (authorization?: string) =>
  new Request(
    "http://x/_svc/admin/auth/users",
    authorization ? { headers: { authorization } } : {},
  );

describe("admin gate", () => {
  it("answers the operator named by the token used", async () => {
    const gate = createAdminGate({ alice, ci });
    expect(await gate(request(`Bearer ${alice}`))).toBe("alice");
    expect(await gate(request(`Bearer ${ci}`))).toBe("ci");
    expect(await createAdminGate(alice)(request(`Bearer ${alice}`))).toBe("admin");
  });

  it("takes the scheme in any case, as RFC 9110 says (issue 53, point 11)", async () => {
    const gate = createAdminGate({ alice });
    for (const scheme of ["bearer", "BEARER", "bEaReR"])
      expect(await gate(request(`${scheme} ${alice}`))).toBe("alice");
  });

  it.each([
    ["no header", undefined],
    ["a wrong token", `Bearer ${alice}x`],
    ["a prefix of the token", `Bearer ${alice.slice(0, 10)}`],
    ["another scheme", `Basic ${alice}`],
    ["lowercase scheme with space tricks", `bearer  ${alice}`],
    ["an empty bearer", "Bearer "],
  ])("refuses %s with UNAUTHENTICATED and WWW-Authenticate", async (_name, header) => {
    await expect(createAdminGate({ alice, ci })(request(header))).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      headers: { "www-authenticate": 'Bearer realm="svc-admin"' },
    });
  });

  it("refuses everyone when no token is configured", async () => {
    await expect(createAdminGate(undefined)(request(`Bearer ${alice}`))).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });
});
