import type { MiddlewareResult } from "@svc/server";
import { describe, expect, it } from "vitest";
import { createAuth } from "../src/index.ts";
import { withAuthPlugins } from "../src/middleware/index.ts";
import { admin, organization } from "../src/plugins.ts";
import { TEST_SECRET } from "./fixture/constants.ts";

/** Runs the middleware as `.use()` would and returns the context it extends. */
async function extensionOf<Ext>(
  middleware: (
    ctx: unknown,
    next: (ext: Ext) => Promise<MiddlewareResult>,
  ) => Promise<MiddlewareResult>,
): Promise<Ext> {
  let extension: Ext | undefined;
  await middleware({}, async (ext) => {
    extension = ext;
    // Outside the runner there is no chain: an empty result stands in for it.
    return {} as MiddlewareResult;
  });
  if (extension === undefined) throw new Error("middleware did not call next");
  return extension;
}

describe("withAuthPlugins", () => {
  const auth = createAuth({ secret: TEST_SECRET, plugins: [admin(), organization()] });

  it("puts every endpoint of the loaded plugins on ctx.authApi", async () => {
    const { authApi } = await extensionOf(withAuthPlugins(auth));
    for (const name of [
      "createOrganization",
      "createInvitation",
      "listMembers",
      "banUser",
      "impersonateUser",
      "getSession",
    ]) {
      expect(typeof (authApi as Record<string, unknown>)[name]).toBe("function");
    }
  });

  it("refuses a call without headers and says where headers come from", async () => {
    const { authApi } = await extensionOf(withAuthPlugins(auth));
    // @ts-expect-error headers are required by the type as well
    const call = () => authApi.listMembers({ query: {} });
    expect(call).toThrow(/listMembers\(\) needs `headers`/);
    expect(call).toThrow(/request\.headers/);
    expect(call).toThrow(/upgrade request/);
    expect(call).toThrow(/new Headers\(\)/);
    expect(call).toThrow(expect.objectContaining({ code: "AUTH_API_HEADERS_REQUIRED" }));
  });

  it("hands the headers to better-auth, which answers as for that caller", async () => {
    const { authApi } = await extensionOf(withAuthPlugins(auth));
    await expect(authApi.getSession({ headers: new Headers() })).resolves.toBeNull();
  });
});
