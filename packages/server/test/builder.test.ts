import { describe, expect, expectTypeOf, it } from "vitest";
import {
  action,
  createWorker,
  defineMiddleware,
  internalAction,
  internalMutation,
  internalQuery,
  mutation,
  type Procedure,
  query,
  stream,
  v,
} from "../src/index.ts";

describe("builders", () => {
  it("offer .expose on public query, mutation and action only, at run time", () => {
    for (const builder of [query, mutation, action])
      expect(typeof (builder as { expose?: unknown }).expose).toBe("function");
    for (const builder of [internalQuery, internalMutation, internalAction, stream]) {
      expect((builder as { expose?: unknown }).expose).toBeUndefined();
    }
  });

  it("offer .expose on public builders only, in the types", () => {
    expectTypeOf(query).toHaveProperty("expose");
    expectTypeOf(internalQuery).not.toHaveProperty("expose");
    expectTypeOf(internalMutation).not.toHaveProperty("expose");
    expectTypeOf(stream).not.toHaveProperty("expose");
    expectTypeOf(query).not.toHaveProperty("bypassRls");
    expectTypeOf(internalQuery).toHaveProperty("bypassRls");
  });

  it("are immutable: each step returns a new builder", () => {
    const base = query.input({ a: v.string() });
    const exposed = base.expose({ rest: true });
    expect(base.handler(() => 1).rest).toBe(false);
    expect(exposed.handler(() => 1).rest).toBe(true);
    expect(() => base.input({ b: v.string() })).toThrow(/already called/);
    expect(() => (query.expose as (options: unknown) => unknown)({ rest: false })).toThrow(
      /rest: true/,
    );
  });

  it("record kind, visibility, args, output, docs and middleware", () => {
    const mw = defineMiddleware(async (_ctx, next) => next());
    const procedure = mutation
      .input({ n: v.number() })
      .output(v.number())
      .use(mw)
      .describe("Doubles", "Longer text")
      .handler((_ctx, args) => args.n * 2);
    expect(procedure).toMatchObject({
      kind: "mutation",
      visibility: "public",
      rest: false,
      bypassRls: false,
    });
    expect(procedure.docs).toEqual({ summary: "Doubles", description: "Longer text" });
    expect(procedure.middleware).toEqual([mw]);
    expect(procedure.args.toJsonSchema()).toMatchObject({ required: ["n"] });
    expectTypeOf(procedure).toEqualTypeOf<Procedure<"mutation", "public", { n: number }, number>>();
  });

  it("record arguments only for procedures that opt in with .log({ args: true })", () => {
    const plain = mutation.input({ n: v.number() }).handler(() => null);
    expect(plain.log).toEqual({ args: false });
    const base = mutation.input({ n: v.number() });
    const logged = base.log({ args: true }).handler(() => null);
    expect(logged.log).toEqual({ args: true });
    // Immutable: the builder it came from still records nothing.
    expect(base.handler(() => null).log).toEqual({ args: false });
    expect(() => (query.log as (options: unknown) => unknown)({ args: "yes" })).toThrow(/boolean/);
    expect(() => (query.log as (options: unknown) => unknown)({ headers: true })).toThrow(
      /no option headers/,
    );
  });

  it("type middleware context extensions and handler arguments", () => {
    const withUser = defineMiddleware<{ user: { id: string } }>(async (_ctx, next) =>
      next({ user: { id: "u" } }),
    );
    query
      .input({ q: v.optional(v.string()) })
      .use(withUser)
      .handler((ctx, args) => {
        expectTypeOf(ctx.user.id).toEqualTypeOf<string>();
        expectTypeOf(args).toEqualTypeOf<{ q?: string }>();
        expectTypeOf(ctx.args).toEqualTypeOf<{ q?: string }>();
        return null;
      });
  });
});

describe("createWorker refuses bad configuration before serving", () => {
  const functions = { "a:b": query.handler(() => 1) };
  it.each([
    ["a short admin token", { adminToken: "short" }, /at least 32 characters/],
    [
      "a short named admin token",
      { adminToken: { alice: "x".repeat(40), ci: "y" } },
      /adminToken "ci" must be at least 32/,
    ],
    ["the removed authIntrospector option", { authIntrospector: {} }, /authAdmin/],
    [
      "a bad procedure path",
      { functions: { "bad path": functions["a:b"] } },
      /not a valid procedure path/,
    ],
    [
      "a registry entry that is not a procedure",
      { functions: { "a:b": 42 } },
      /is not a procedure/,
    ],
    ["a missing shardDO", { shardDO: undefined }, /shardDO/],
  ])("%s", (_name, overrides, message) => {
    expect(() => createWorker({ shardDO: "SHARD", functions, ...(overrides as object) })).toThrow(
      message,
    );
  });
});
