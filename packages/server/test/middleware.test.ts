import { describe, expect, expectTypeOf, it } from "vitest";
import { defineMiddleware, type MiddlewareResult, query } from "../src/index.ts";
import { rpc, rpcValue } from "./rpc.ts";

/**
 * Issue 19 item 1: a middleware cannot lose the procedure's result. `next()`
 * resolves to an opaque result the middleware must return; one that returns
 * anything else is refused loudly instead of turning the result into
 * `undefined`.
 */

describe("middleware result (types)", () => {
  it("makes next() resolve to a result the middleware must return", () => {
    const passes = defineMiddleware(async (_ctx, next) => next());
    expectTypeOf(passes).returns.resolves.toEqualTypeOf<MiddlewareResult>();
    // @ts-expect-error awaiting next() and returning nothing loses the result: a type error.
    defineMiddleware(async (_ctx, next) => {
      await next();
    });
    // @ts-expect-error a middleware cannot substitute a value of its own for the result.
    query.use(async () => "something else");
    const extended = defineMiddleware<{ now: number }>(async (_ctx, next) => next({ now: 1 }));
    expectTypeOf(query.use(extended).handler((ctx) => ctx.now)).not.toBeNever();
  });
});

describe("middleware result (runtime)", () => {
  it("keeps the handler's result through middleware that return next()", async () => {
    expect(await rpcValue("notes:echo", { word: "hi" })).toMatchObject({ word: "hi" });
  });

  it("refuses a middleware that awaits next() but returns nothing: 500, never a silent undefined", async () => {
    const response = await rpc("notes:lostResult", {});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      code: "INTERNAL",
      detail: "An internal error occurred.",
    });
  });

  it("refuses a middleware that neither calls next() nor throws", async () => {
    const response = await rpc("notes:noNext", {});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: "INTERNAL" });
  });
});
