import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keptIdStub } from "../src/model/endpoint-stub.ts";
import type { ShardEndpoint } from "../src/shard/call.ts";
import { rpcValue } from "./rpc.ts";

/**
 * `keptIdStub` keeps the ids it derives (issue 50: `getByName` hashed the
 * shard key on every call). Kept or not, a stub must reach the object
 * `getByName` reaches, under its name, past the point where the kept ids
 * start again.
 */
describe("keptIdStub", () => {
  it("reaches the object getByName reaches, by name, past the kept ids' bound", () => {
    for (let i = 0; i < 1_100; i++) {
      const name = `kept-${i % 1_050}`;
      const stub = keptIdStub<ShardEndpoint>(env.SHARD, name) as unknown as DurableObjectStub;
      expect(stub.id.toString()).toBe(env.SHARD.idFromName(name).toString());
      expect(stub.id.name).toBe(name);
    }
  });

  it("routes each request's calls to its own shard key's object", async () => {
    await rpcValue("notes:add", { text: "kept" }, { shardKey: "kept-a" });
    await rpcValue("notes:add", { text: "also kept" }, { shardKey: "kept-a" });
    const own = await rpcValue<{ text: string }[]>("notes:all", undefined, { shardKey: "kept-a" });
    const other = await rpcValue<unknown[]>("notes:all", undefined, { shardKey: "kept-b" });
    expect(own.map((note) => note.text)).toEqual(["kept", "also kept"]);
    expect(other).toEqual([]);
  });
});
