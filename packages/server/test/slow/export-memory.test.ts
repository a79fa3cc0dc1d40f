import { describe, expect, it } from "vitest";
import { exportWithSlowReader } from "../data/export-probe.ts";

const DOCUMENTS = 1_000_000;

describe("an export of 1,000,000 documents", () => {
  it("streams every line while holding at most a couple of chunks, as at 60,000", async () => {
    const probe = await exportWithSlowReader("export-memory-1m", DOCUMENTS);
    expect(probe.lines).toBe(DOCUMENTS);
    expect(probe.released).toBe(1);
    expect(probe.maxChunkBytes).toBeLessThanOrEqual(512 * 1024 + 1024);
    // Two 512 KiB chunks of ~100-byte lines and one page of rows: the same bound as the fast test's.
    expect(probe.maxRowsAhead).toBeLessThan(12_000);
  });
});
