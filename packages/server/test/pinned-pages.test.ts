import { describe, expect, it } from "vitest";
import { rpcValue } from "./rpc.ts";

type Page = { page: { _id: string; body: string }[]; isDone: boolean; continueCursor: string };

const send = (body: string, shardKey: string, channel?: string) =>
  rpcValue<string>(
    "messages:send",
    { body, ...(channel ? { channel } : {}) },
    {
      user: "ann",
      shardKey,
    },
  );
const page = (
  shardKey: string,
  order: "asc" | "desc",
  paginationOpts: { cursor: string | null; numItems: number; endCursor?: string | null },
) => rpcValue<Page>("messages:pinnedPage", { order, paginationOpts }, { user: "ann", shardKey });
const bodies = (result: Page) => result.page.map((row) => row.body);

describe("pages pinned with endCursor (live pages)", () => {
  it.each(["asc", "desc"] as const)(
    "keep their range %s: an insert inside grows the page, a delete shrinks it, the next page is untouched",
    async (order) => {
      const shardKey = `pinned-${order}`;
      // NULL channels sort first ascending and last descending: the range logic must hold for both.
      const ids: Record<string, string> = {};
      for (const [body, channel] of [
        ["b", "c2"],
        ["d", "c4"],
        ["n", undefined],
        ["f", "c6"],
      ] as const)
        ids[body] = await send(body, shardKey, channel);
      const first = await page(shardKey, order, { cursor: null, numItems: 2 });
      const second = await page(shardKey, order, { cursor: first.continueCursor, numItems: 10 });
      const pinned = { cursor: null, numItems: 2, endCursor: first.continueCursor };
      expect(bodies(await page(shardKey, order, pinned))).toEqual(bodies(first));
      expect(await page(shardKey, order, pinned)).toMatchObject({
        isDone: false,
        continueCursor: first.continueCursor,
      });
      // Inside the first page: ascending it is [n, b] (c1 falls between), descending [f, d] (c5).
      await send("c", shardKey, order === "asc" ? "c1" : "c5");
      const grown = await page(shardKey, order, pinned);
      expect(bodies(grown)).toHaveLength(3);
      expect(bodies(grown)).toContain("c");
      const remove = bodies(first)[0]!;
      await rpcValue("messages:remove", { id: ids[remove] }, { user: "ann", shardKey });
      expect(bodies(await page(shardKey, order, pinned))).not.toContain(remove);
      const nextAgain = await page(shardKey, order, { cursor: first.continueCursor, numItems: 10 });
      expect(bodies(nextAgain)).toEqual(bodies(second));
      const lastPinned = await page(shardKey, order, {
        cursor: first.continueCursor,
        numItems: 1,
        endCursor: second.continueCursor,
      });
      expect(lastPinned).toMatchObject({ isDone: true });
      expect(bodies(lastPinned)).toEqual(bodies(second));
    },
  );
});
