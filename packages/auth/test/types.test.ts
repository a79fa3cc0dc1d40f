import { type IdentityResolver, mutation, query, v } from "@svc/server";
import type { ParamsOf } from "@svc/server/routes";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AdminHandler } from "../src/admin/handler.ts";
import { revokeSession } from "../src/admin/users/sessions.ts";
import { createAuth, sessionIdentity, verifyCaptchaMiddleware } from "../src/index.ts";
import { withAuthPlugins } from "../src/middleware/index.ts";
import { organization } from "../src/plugins.ts";
import { TEST_SECRET } from "./fixture/constants.ts";

// These checks run in `tsc` (npm test's typecheck); the `it`s keep them in the suite.
describe("types", () => {
  it("types the captcha token selector's ctx from the procedure's builder", () => {
    const guarded = query.input({ token: v.string(), count: v.number() }).use(
      verifyCaptchaMiddleware({
        secret: "s",
        token: (ctx) => {
          expectTypeOf(ctx.args).toEqualTypeOf<{ token: string; count: number }>();
          expectTypeOf(ctx.auth.userId).toEqualTypeOf<string | null>();
          return ctx.args.token;
        },
      }),
    );
    mutation.input({ token: v.string() }).use(
      verifyCaptchaMiddleware({
        secret: "s",
        // @ts-expect-error the procedure has no `captcha` argument
        token: (ctx) => ctx.args.captcha,
      }),
    );
    expect(typeof guarded.handler).toBe("function");
  });

  it("types ctx.authApi against the loaded plugins and requires headers", () => {
    const auth = createAuth({ secret: TEST_SECRET, plugins: [organization()] });
    const listMembers = query.use(withAuthPlugins(auth)).handler(async (ctx) => {
      const members = await ctx.authApi.listMembers({ query: {}, headers: new Headers() });
      expectTypeOf(members.members[0]?.role).toEqualTypeOf<
        "admin" | "member" | "owner" | undefined
      >();
      // @ts-expect-error headers are required
      await ctx.authApi.listMembers({ query: {} });
      // @ts-expect-error only endpoints of loaded plugins exist
      await ctx.authApi.banUser({ body: { userId: "u" }, headers: new Headers() });
      return members.total;
    });
    expect(listMembers.kind).toBe("query");
  });

  it("gives createWorker an IdentityResolver", () => {
    const auth = createAuth({ secret: TEST_SECRET });
    expectTypeOf(sessionIdentity(auth)).toEqualTypeOf<IdentityResolver<unknown>>();
    expectTypeOf(sessionIdentity((_env: { DB: D1Database }) => auth)).toEqualTypeOf<
      IdentityResolver<{ DB: D1Database }>
    >();
  });
});

describe("admin route parameters are typed from the pattern", () => {
  it("gives handlers the pattern's parameters and refuses a handler reading one it lacks", () => {
    expectTypeOf<ParamsOf<"users/:id/sessions/:sessionId">>().toEqualTypeOf<{
      readonly id: string;
      readonly sessionId: string;
    }>();
    expectTypeOf<ParamsOf<"users">>().toEqualTypeOf<Record<never, never>>();
    const revoke: AdminHandler<"revokeSession"> = revokeSession;
    // @ts-expect-error revokeSession reads params.sessionId, which "users/:id" does not capture.
    const wrong: AdminHandler<"deleteUser"> = revokeSession;
    // @ts-expect-error no `id` on the parameters of "users".
    const listing: AdminHandler<"listUsers"> = async (call) => call.params.id;
    expect([revoke, wrong, listing]).toHaveLength(3);
  });
});
