import { describe, expect, it } from "vitest";
import { migrateUnderLoad } from "../migration-load.ts";

/**
 * Issue 27's "done when": 100,000 documents in each of 5 shards, migrated
 * while a read/write load runs, across a forced eviction; the slow suite
 * (`npm run test:slow`), since seeding and migrating half a million
 * documents takes minutes on the CI machine.
 */
describe("an online migration at scale", () => {
  it("migrates 100,000 documents in each of 5 shards once under load: 0 5xx, 0 lost writes, exact dry run", async () => {
    const shards = ["scale-1", "scale-2", "scale-3", "scale-4", "scale-5"];
    const started = Date.now();
    const { rounds, calls, statuses } = await migrateUnderLoad(shards, 100_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `migrated ${statuses.length} × 100,000 documents in ${seconds.toFixed(1)} s with ${calls} calls in ${rounds} rounds; written by the app first: ${statuses.map((status) => status.writtenByApp).join(", ")}`,
    );
    expect(statuses.every((status) => status.state === "done")).toBe(true);
  }, 900_000);
});
