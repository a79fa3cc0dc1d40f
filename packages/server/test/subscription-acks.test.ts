import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpc } from "./rpc.ts";

type Frame = { type: string; id?: string; value?: unknown; includes?: string[]; mutation?: string };

const ANN_CLIENT = "ann-client-0123456789";
const BOB_CLIENT = "bob-client-0123456789";

/** Opens a subscription socket as `user` with a client id; frames collect in `frames`. */
async function open(user: string, shardKey: string, clientId: string) {
  const url = `http://svc.test/_svc/ws?shardKey=${shardKey}&clientId=${clientId}`;
  const response = await exports.default.fetch(
    new Request(url, {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1", "x-test-user": user },
    }),
  );
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const frames: Frame[] = [];
  ws.addEventListener("message", (event) => {
    frames.push(JSON.parse(event.data as string));
  });
  const until = async (match: (frame: Frame) => boolean): Promise<Frame[]> => {
    for (let waited = 0; waited < 15_000; waited += 10) {
      if (frames.some(match)) return frames;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
  };
  return { ws, frames, until };
}

const send = (body: string, user: string, shardKey: string, mutationId?: string) =>
  rpc(
    "messages:send",
    { body },
    {
      user,
      shardKey,
      ...(mutationId ? { headers: { "x-svc-mutation-id": mutationId } } : {}),
    },
  );

// The first test also pays for the shard's cold start, seconds on a busy machine.
describe("mutation acknowledgements on subscription sockets", { timeout: 30_000 }, () => {
  it("list the client's mutation in the push that reflects it, then say applied, to that client only", async () => {
    const ann = await open("ann", "acks-1", ANN_CLIENT);
    const bob = await open("bob", "acks-1", BOB_CLIENT);
    ann.ws.send(JSON.stringify({ type: "subscribe", id: "a", path: "messages:countEverything" }));
    bob.ws.send(JSON.stringify({ type: "subscribe", id: "b", path: "messages:countEverything" }));
    await ann.until((frame) => frame.type === "value");
    await bob.until((frame) => frame.type === "value");
    expect((await send("one", "ann", "acks-1", `${ANN_CLIENT}:1`)).status).toBe(200);
    const frames = await ann.until((frame) => frame.type === "applied");
    const push = frames.findIndex((frame) => frame.includes?.includes(`${ANN_CLIENT}:1`));
    const applied = frames.findIndex((frame) => frame.type === "applied");
    expect(frames[push]).toMatchObject({ type: "value", id: "a" });
    expect(push).toBeLessThan(applied);
    expect(frames[applied]).toEqual({ type: "applied", mutation: `${ANN_CLIENT}:1` });
    await bob.until((frame) => frame.type === "value" && frame !== bob.frames[0]);
    expect(bob.frames.every((frame) => frame.type === "value" && !frame.includes)).toBe(true);
    ann.ws.close();
    bob.ws.close();
  });

  it("say applied for a mutation no subscription reads, and never for one that failed", async () => {
    const ann = await open("ann", "acks-2", ANN_CLIENT);
    ann.ws.send(JSON.stringify({ type: "subscribe", id: "a", path: "messages:list" }));
    await ann.until((frame) => frame.type === "value");
    const failed = await rpc(
      "messages:sendThenFail",
      { body: "x" },
      {
        user: "ann",
        shardKey: "acks-2",
        headers: { "x-svc-mutation-id": `${ANN_CLIENT}:7` },
      },
    );
    expect(failed.status).toBe(409);
    const unrelated = await rpc(
      "notes:add",
      { text: "n" },
      {
        shardKey: "acks-2",
        headers: { "x-svc-mutation-id": `${ANN_CLIENT}:8` },
      },
    );
    expect(unrelated.status).toBe(200);
    const frames = await ann.until((frame) => frame.type === "applied");
    expect(frames.filter((frame) => frame.type === "applied")).toEqual([
      { type: "applied", mutation: `${ANN_CLIENT}:8` },
    ]);
    expect(frames.filter((frame) => frame.type === "value")).toHaveLength(1);
    ann.ws.close();
  });

  it("refuse a malformed mutation id and client id", async () => {
    const bad = await send("x", "ann", "acks-3", "not-an-id");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "BAD_REQUEST" });
    const socket = await exports.default.fetch(
      new Request("http://svc.test/_svc/ws?shardKey=acks-3&clientId=short", {
        headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1" },
      }),
    );
    expect(socket.status).toBe(400);
  });
});
