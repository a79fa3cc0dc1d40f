import { describe, expect, it } from "vitest";
import {
  IMPORT_CHUNK_ROWS,
  type ImportSourceRow,
  importChunks,
  importFormat,
  importRows,
  MAX_IMPORT_FILE_BYTES,
} from "../../ui/lib/import-file.ts";

describe("importFormat", () => {
  it.each([
    { name: "users.csv", type: "", expected: "csv" },
    { name: "USERS.CSV", type: "", expected: "csv" },
    { name: "export", type: "text/csv", expected: "csv" },
    { name: "users.json", type: "", expected: "json" },
    { name: "data", type: "application/json", expected: "json" },
  ])("reads $name ($type) as $expected", ({ name, type, expected }) => {
    expect(importFormat({ name, type, size: 10 })).toBe(expected);
  });

  it("refuses other files, empty ones and files over 50 MB, in words", () => {
    expect(() => importFormat({ name: "users.xlsx", type: "", size: 10 })).toThrow(
      "users.xlsx is not a .csv or .json file.",
    );
    expect(() =>
      importFormat({ name: "big.csv", type: "", size: MAX_IMPORT_FILE_BYTES + 1 }),
    ).toThrow("big.csv is 53 MB; the limit is 50 MB.");
    expect(() => importFormat({ name: "none.json", type: "", size: 0 })).toThrow(
      "none.json is empty.",
    );
    expect(importFormat({ name: "max.csv", type: "", size: MAX_IMPORT_FILE_BYTES })).toBe("csv");
  });
});

describe("importRows", () => {
  it("reads CSV rows with their line numbers, the export's formula guard removed", () => {
    const text =
      "id,email,name\r\nu1,ann@example.com,'=Ann\r\nu2,bob@example.com,\"Bob\r\nB.\"\r\nu3,cy@example.com,'Cy\r\n";
    expect(importRows("csv", text)).toEqual([
      { row: 2, record: { id: "u1", email: "ann@example.com", name: "=Ann" } },
      { row: 3, record: { id: "u2", email: "bob@example.com", name: "Bob\r\nB." } },
      { row: 5, record: { id: "u3", email: "cy@example.com", name: "'Cy" } },
    ]);
  });

  it("reads a JSON array or { users }, numbering users from 1 and keeping values as they are", () => {
    const users = [{ email: "ann@example.com", name: "'=Ann", emailVerified: true }];
    expect(importRows("json", JSON.stringify(users))).toEqual([{ row: 1, record: users[0] }]);
    expect(importRows("json", JSON.stringify({ users }))).toEqual([{ row: 1, record: users[0] }]);
  });

  it.each([
    { format: "csv", text: "email,name\r\n", message: "users.csv holds no users." },
    {
      format: "csv",
      text: "mail,name\r\nx,y\r\n",
      message: 'users.csv has no "email" column in its first line.',
    },
    {
      format: "csv",
      text: 'email,name\r\na@x.io,"A\r\n',
      message: "users.csv cannot be read as CSV. Line 2: a quoted cell is not closed.",
    },
    { format: "json", text: "[{", message: "users.csv is not valid JSON." },
    { format: "json", text: '{"email":"a@x.io"}', message: "must hold a JSON array of users" },
    {
      format: "json",
      text: '[{"email":"a@x.io"},3]',
      message: "users.csv: item 2 is not a user object.",
    },
  ] as const)("refuses $message", ({ format, text, message }) => {
    expect(() => importRows(format, text, "users.csv")).toThrow(message);
  });
});

describe("importChunks", () => {
  const rows = (count: number, name = "N"): ImportSourceRow[] =>
    Array.from({ length: count }, (_, index) => ({
      row: index + 2,
      record: { email: `u${index}@example.com`, name },
    }));

  it("splits into requests of 500 users, in file order", () => {
    const chunks = importChunks(rows(1_201));
    expect(chunks.map((chunk) => chunk.length)).toEqual([
      IMPORT_CHUNK_ROWS,
      IMPORT_CHUNK_ROWS,
      201,
    ]);
    expect(chunks.flat().map((row) => row.row)).toEqual(rows(1_201).map((row) => row.row));
  });

  it("starts a new request before the JSON body passes the byte limit, counting UTF-8 bytes", () => {
    // Each record: {"email":"uN@example.com","name":"ééé…"} with 2-byte characters.
    const wide = rows(10, "é".repeat(100));
    const one = new TextEncoder().encode(JSON.stringify(wide[0]!.record)).byteLength + 1;
    const chunks = importChunks(wide, { rows: 500, bytes: 2 + one * 3 + 5 });
    expect(chunks.map((chunk) => chunk.length)).toEqual([3, 3, 3, 1]);
    for (const chunk of chunks) {
      const body = JSON.stringify(chunk.map((row) => row.record));
      expect(new TextEncoder().encode(body).byteLength).toBeLessThanOrEqual(2 + one * 3 + 5);
    }
  });

  it("keeps nothing for nothing", () => {
    expect(importChunks([])).toEqual([]);
  });
});
