/**
 * A shard's reusable `AsyncLocalStorage` frames in workerd: calls running at
 * once keep their console lines apart, a frame waits for enough other calls
 * before its next one, and a frame workerd refuses (made in another request)
 * is replaced without losing the call.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CallScope } from "../src/observability/call-scope.ts";
import { installConsoleCapture } from "../src/observability/console-capture.ts";
import { FRAMES_BEFORE_REUSE, FramePool } from "../src/observability/frame-pool.ts";
import { shardOf } from "./migration-support.ts";

installConsoleCapture();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messages = (scope: CallScope) => scope.lines.map((line) => line.message);

describe("a shard's frame pool", () => {
  it("keeps the lines of calls running at once apart", async () => {
    const frames = new FramePool();
    const scopes = [0, 1, 2, 3].map(() => new CallScope());
    await Promise.all(
      scopes.map((scope, i) =>
        frames.run(scope, async () => {
          console.log(`start ${i}`);
          await pause(5 * (4 - i));
          console.log(`end ${i}`);
        }),
      ),
    );
    expect(scopes.map(messages)).toEqual([0, 1, 2, 3].map((i) => [`start ${i}`, `end ${i}`]));
  });

  it("never gives a frame that printed between its calls to a later call", async () => {
    const frames = new FramePool();
    const first = new CallScope();
    const timer = await frames.run(first, async () =>
      setInterval(() => console.log("left running"), 1),
    );
    await pause(10);
    const later = Array.from({ length: FRAMES_BEFORE_REUSE + 2 }, () => new CallScope());
    try {
      for (const scope of later) {
        await frames.run(scope, async () => {
          console.log("own line");
          await pause(3);
        });
      }
    } finally {
      clearInterval(timer);
    }
    expect(messages(first)).toEqual([]);
    for (const scope of later) expect(messages(scope)).toEqual(["own line"]);
  });

  it("runs a call in a fresh frame when workerd refuses one made in another request", async () => {
    const frames = new FramePool();
    for (let i = 0; i < FRAMES_BEFORE_REUSE; i++) await frames.run(new CallScope(), async () => {});
    // Those frames were made in this test's request; a Durable Object's call is another.
    const answer = await runInDurableObject(shardOf("frame-pool"), async () => {
      const scope = new CallScope();
      const value = await frames.run(scope, async () => {
        console.log("inside the object");
        return 7;
      });
      return { value, lines: messages(scope) };
    });
    expect(answer).toEqual({ value: 7, lines: ["inside the object"] });
  });
});
