/**
 * The admin API's one CSV codec (`@svc/auth/admin-contract`): what
 * `GET users/export` writes, `POST users/import` reads, and the dashboard
 * reads and writes in the browser. Pure functions, run here in workerd.
 */
import { describe, expect, it } from "vitest";
import {
  CsvError,
  csvRow,
  parseCsv,
  readCsvTable,
  unguardFormula,
} from "../src/admin/contract/index.ts";

const cellsOf = (text: string) => parseCsv(text).records.map((record) => record.cells);

describe("parseCsv", () => {
  it.each([
    {
      name: "plain cells, LF",
      text: "email,name\nann@example.com,Ann\nbob@example.com,Bob\n",
      expected: [
        { email: "ann@example.com", name: "Ann" },
        { email: "bob@example.com", name: "Bob" },
      ],
    },
    {
      name: "CRLF and no final line break",
      text: "email,name\r\nann@example.com,Ann\r\nbob@example.com,Bob",
      expected: [
        { email: "ann@example.com", name: "Ann" },
        { email: "bob@example.com", name: "Bob" },
      ],
    },
    {
      name: "quoted commas and doubled quotes",
      text: 'email,name\r\nann@example.com,"Ann ""A"", Jr."\r\n',
      expected: [{ email: "ann@example.com", name: 'Ann "A", Jr.' }],
    },
    {
      name: "line breaks inside quotes (LF and CRLF kept as written)",
      text: 'email,name\r\nann@example.com,"two\nlines"\r\nbob@example.com,"three\r\nlines\r\n!"\r\n',
      expected: [
        { email: "ann@example.com", name: "two\nlines" },
        { email: "bob@example.com", name: "three\r\nlines\r\n!" },
      ],
    },
    {
      name: "empty cells, an empty quoted cell, blank lines and a byte-order mark",
      text: '\uFEFFemail,name,id\r\n\r\nann@example.com,,""\r\n\r\n',
      expected: [{ email: "ann@example.com", name: "", id: "" }],
    },
    {
      name: "a quote inside an unquoted cell is text",
      text: 'email,name\r\nann@example.com,O"Brien\r\n',
      expected: [{ email: "ann@example.com", name: 'O"Brien' }],
    },
  ])("reads $name", ({ text, expected }) => {
    expect(cellsOf(text)).toEqual(expected);
  });

  it("numbers each record by the line it starts on, counting lines inside quotes", () => {
    const table = parseCsv('email,name\r\na@x.io,"A\r\nB"\r\n\r\nb@x.io,B\r\n');
    expect(table.header).toEqual(["email", "name"]);
    expect(table.records.map((record) => record.line)).toEqual([2, 5]);
  });

  it("reads a header alone as no records, and nothing as no header", () => {
    expect(parseCsv("email,name\r\n")).toEqual({ header: ["email", "name"], records: [] });
    expect(parseCsv("")).toEqual({ header: [], records: [] });
  });

  it.each([
    { text: 'email,name\r\na@x.io,"Ann\r\n', message: "Line 2: a quoted cell is not closed." },
    { text: "email,name\r\na@x.io\r\n", message: "Line 2: 1 cells, but the header has 2." },
    {
      text: "email,name\r\nb@x.io,B\r\na@x.io,A,x\r\n",
      message: "Line 3: 3 cells, but the header has 2.",
    },
    { text: "email,,name\r\n", message: "Line 1: the header has an empty column name." },
    { text: "email,email\r\n", message: 'Line 1: the header names "email" twice.' },
  ])("refuses $message", ({ text, message }) => {
    expect(() => parseCsv(text)).toThrow(CsvError);
    expect(() => parseCsv(text)).toThrow(message);
  });

  it("reads back what the export writes, once the formula guard is removed", () => {
    const values = [
      "u1",
      '=HYPERLINK("http://x")',
      "+1 555",
      "-5",
      "@sum",
      "\tTab",
      'Ann, "A"\r\nline two',
      "'plain quote",
      "",
    ];
    const text = csvRow(values.map((_, index) => `c${index}`)) + csvRow(values);
    const [record] = parseCsv(text).records;
    const cells = Object.values(record!.cells).map(unguardFormula);
    expect(cells).toEqual(values);
  });
});

describe("unguardFormula", () => {
  it.each([
    { cell: "'=1+1", expected: "=1+1" },
    { cell: "'+1", expected: "+1" },
    { cell: "'-1", expected: "-1" },
    { cell: "'@a", expected: "@a" },
    { cell: "'\tx", expected: "\tx" },
    { cell: "'quoted", expected: "'quoted" },
    { cell: "=raw", expected: "=raw" },
    { cell: "", expected: "" },
  ])("$cell → $expected", ({ cell, expected }) => {
    expect(unguardFormula(cell)).toBe(expected);
  });
});

describe("readCsvTable", () => {
  it("reads what csvRow wrote, guard removed, with each record's line and the header", () => {
    const text = `\uFEFF${csvRow(["email", "name"])}${csvRow(["ann@example.com", "=Ann"])}${csvRow(["bob@example.com", "'quoted"])}`;
    expect(readCsvTable(text)).toEqual({
      header: ["email", "name"],
      records: [
        { line: 2, cells: { email: "ann@example.com", name: "=Ann" } },
        { line: 3, cells: { email: "bob@example.com", name: "'quoted" } },
      ],
    });
  });

  it("refuses what parseCsv refuses, with the line", () => {
    expect(() => readCsvTable('id,email\r\n"open')).toThrow(
      new CsvError(2, "a quoted cell is not closed."),
    );
  });
});

describe("csvRow", () => {
  it("quotes what needs quoting, guards formulas, leaves numbers and booleans alone", () => {
    expect(csvRow([2, "ann@example.com", "=cmd", 'say "hi", bye', null, -3, undefined, true])).toBe(
      '2,ann@example.com,\'=cmd,"say ""hi"", bye",,-3,,true\r\n',
    );
  });

  it("writes what parseCsv reads back", () => {
    const row = ["a,b", 'q"q', "x\r\ny", "plain"];
    const text = csvRow(["w", "x", "y", "z"]) + csvRow(row);
    expect(Object.values(parseCsv(text).records[0]!.cells)).toEqual(row);
  });
});
