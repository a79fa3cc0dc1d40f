import { csvRow } from "@svc/auth/admin-contract";
import { describe, expect, it } from "vitest";
import { rowCounter } from "../../ui/lib/row-counter.ts";

/** Feeds the text in pieces of `size` characters, as a stream might cut it. */
function countInPieces(format: "csv" | "json", text: string, size: number): number {
  const counter = rowCounter(format);
  for (let i = 0; i < text.length; i += size) counter.push(text.slice(i, i + size));
  return counter.rows;
}

const USERS = [
  { id: "u1", email: "ann@example.com", name: 'Ann "A", Jr.\r\nsecond line' },
  { id: "u2", email: "bob@example.com", name: "Bob {not a brace} [nor this]" },
  { id: "u3", email: "cy@example.com", name: 'Back\\slash and "quote" }' },
];

describe("rowCounter", () => {
  const csv =
    csvRow(["id", "email", "name"]) + USERS.map((user) => csvRow(Object.values(user))).join("");
  const json = JSON.stringify(USERS);

  it.each([1, 2, 7, 1000])(
    "counts CSV users cut every %i characters, not lines in quotes",
    (size) => {
      expect(countInPieces("csv", csv, size)).toBe(3);
    },
  );

  it.each([1, 3, 11, 1000])(
    "counts JSON users cut every %i characters, not braces in strings",
    (size) => {
      expect(countInPieces("json", json, size)).toBe(3);
    },
  );

  it("counts only complete users, and nothing for a header or an empty array", () => {
    expect(countInPieces("csv", "id,email\r\n", 4)).toBe(0);
    expect(countInPieces("csv", `${csv}u4,dee@exam`, 5)).toBe(3);
    expect(countInPieces("json", "[]", 1)).toBe(0);
    expect(countInPieces("json", json.slice(0, -10), 4)).toBe(2);
  });
});
