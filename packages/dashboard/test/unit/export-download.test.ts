import { csvRow } from "@svc/auth/admin-contract";
import { describe, expect, it } from "vitest";
import { type ExportProgress, exportFileName, readExport } from "../../ui/lib/export-download.ts";

/** A response whose body arrives in the given pieces, as a streamed export does. */
function streamed(pieces: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    }),
  );
}

describe("readExport", () => {
  it("returns the whole file and reports users and bytes, the last report complete", async () => {
    const text =
      csvRow(["id", "email", "name"]) +
      csvRow(["u1", "ann@example.com", "Ann\r\nA."]) +
      csvRow(["u2", "zoë@example.com", "Zoë"]);
    // Cut inside a quoted cell and inside the two bytes of "ë".
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf("A.");
    const pieces = [text.slice(0, cut), text.slice(cut)];
    const seen: ExportProgress[] = [];
    const file = await readExport(streamed(pieces), "csv", (progress) => seen.push(progress));
    expect(await file.blob.text()).toBe(text);
    expect(file.blob.type).toBe("text/csv");
    expect(file).toMatchObject({ rows: 2, bytes: bytes.byteLength });
    expect(seen.at(-1)).toEqual({ rows: 2, bytes: bytes.byteLength });
  });

  it("counts JSON users", async () => {
    const users = [
      { id: "u1", name: "{[" },
      { id: "u2", name: '"}' },
    ];
    const file = await readExport(
      streamed(["[", JSON.stringify(users).slice(1)]),
      "json",
      () => {},
    );
    expect(file.rows).toBe(2);
    expect(file.blob.type).toBe("application/json");
  });
});

describe("exportFileName", () => {
  it("dates the file in the operator's time zone", () => {
    expect(exportFileName("csv", new Date(2026, 10, 25, 23, 59))).toBe("users-2026-11-25.csv");
    expect(exportFileName("json", new Date(2027, 0, 3))).toBe("users-2027-01-03.json");
  });
});
