import { exports } from "cloudflare:workers";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient, SvcClientError } from "../../client/src/index.ts";
import { api } from "./fixture/api.ts";

const client = createClient({
  url: "http://svc.test",
  fetch: (input, init) => exports.default.fetch(input, init),
  headers: { "x-test-user": "ann" },
});

describe("@svc/client over the worker", () => {
  it("calls queries, mutations and actions with typed results", async () => {
    const shard = client.withShard("client-calls");
    const id = await shard.mutation(api.messages.send, { body: "typed" });
    expectTypeOf(id).toEqualTypeOf<string & { readonly __table: "messages" }>();
    const list = await shard.query(api.messages.list);
    expect(list.map((m) => m.body)).toEqual(["typed"]);
    const echoed = await shard.query(api.notes.echo, { word: "w", big: 5n });
    expect(echoed.big).toBe(5n);
    expectTypeOf(echoed.stampedBy).toEqualTypeOf<string>();
    const result = await shard.action(api.notes.addViaAction, { text: "a" });
    expect(result.count).toBe(1);
  });

  it("answers null for a procedure that returns nothing (was PROTOCOL_ERROR before 2026-12-05)", async () => {
    expect(await client.query(api.notes.nothing)).toBeNull();
  });

  it("delivers stream items in order", async () => {
    const items: number[] = [];
    for await (const item of client.stream(api.messages.ticks, { count: 25 })) items.push(item.i);
    expect(items).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("raises a stream's mid-way error with its code after the items before it", async () => {
    const seen: unknown[] = [];
    const error = await (async () => {
      try {
        for await (const item of client.stream(api.messages.failingStream)) seen.push(item);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(seen).toEqual([1]);
    expect(error).toBeInstanceOf(SvcClientError);
    expect(error).toMatchObject({ code: "CONFLICT", message: "stream broke" });
  });

  it("raises typed errors with code, status and issues", async () => {
    const error = await client
      .mutation(api.notes.add, { text: 3 as unknown as string })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SvcClientError);
    expect(error).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      issues: [{ path: "args.text", message: "expected string, got number" }],
    });
    const network = createClient({
      url: "http://svc.test",
      fetch: () => Promise.reject(new TypeError("offline")),
    });
    await expect(network.query(api.messages.list)).rejects.toMatchObject({
      code: "NETWORK_ERROR",
      status: 0,
    });
  });
});
