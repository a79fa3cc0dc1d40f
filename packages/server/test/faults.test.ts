import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorker } from "../src/index.ts";
import { contextsWaitedAtEnd } from "./contexts-waited-at-end.ts";
import { functions } from "./fixture/functions.ts";
import { rpc, rpcValue } from "./rpc.ts";

/** A second worker over the same shards, with a short timeout so the hang test is quick. */
const impatient = createWorker({ shardDO: "SHARD", functions, procedureTimeoutMs: 2000 });
const context = contextsWaitedAtEnd();
const callImpatient = (path: string, shardKey: string) =>
  impatient.fetch(
    new Request(`http://svc.test/_svc/rpc?shardKey=${shardKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, args: {} }),
    }),
    env,
    context(),
  );

describe("faults stay inside their call", () => {
  it("answers a procedure that never finishes with 503 UNAVAILABLE, and the shard keeps serving", async () => {
    const response = await callImpatient("faults:hang", "hang-shard");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: "UNAVAILABLE" });
    expect((await callImpatient("notes:all", "hang-shard")).status).toBe(200);
  });

  it("answers overlapping hung calls of one shard each at its own deadline, not the first one's", async () => {
    const first = callImpatient("faults:hang", "hang-twice");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const startedSecond = Date.now();
    const second = callImpatient("faults:hang", "hang-twice");
    expect((await first).status).toBe(503);
    const answered = await second;
    expect(answered.status).toBe(503);
    expect(await answered.json()).toMatchObject({
      code: "UNAVAILABLE",
      detail: "The procedure did not finish within 2000 ms.",
    });
    expect(Date.now() - startedSecond).toBeGreaterThanOrEqual(1900);
    expect((await callImpatient("notes:all", "hang-twice")).status).toBe(200);
  });

  it("answers a failed huge allocation with INTERNAL; that shard and others keep working", async () => {
    await rpcValue("notes:add", { text: "before" }, { shardKey: "hog-shard" });
    const response = await rpc("faults:hogMemory", {}, { shardKey: "hog-shard" });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      code: "INTERNAL",
      detail: "An internal error occurred.",
    });
    expect(await rpcValue<unknown[]>("notes:all", {}, { shardKey: "hog-shard" })).toHaveLength(1);
    expect((await rpc("notes:all", {}, { shardKey: "other-shard" })).status).toBe(200);
  });
});
