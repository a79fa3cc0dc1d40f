import { parseCsv } from "@svc/auth/admin-contract";
import { describe, expect, it } from "vitest";
import { countOutcomes, problemRows, type RowOutcome, reportCsv } from "../../ui/lib/import-run.ts";

const OUTCOMES: RowOutcome[] = [
  {
    row: 9,
    email: "=evil@example.com",
    status: "invalid",
    reasons: ["email: must be an email address"],
  },
  { row: 2, email: "ann@example.com", status: "valid", reasons: [] },
  {
    row: 4,
    email: "bob@example.com",
    status: "skipped",
    reasons: ["email: the same as row 3", "id: x, y"],
  },
  { row: 3, email: "bob@example.com", status: "valid", reasons: [] },
  { row: 5, email: null, status: "invalid", reasons: ["email: is required", "name: is required"] },
];

describe("an import's report", () => {
  it("counts each status", () => {
    expect(countOutcomes(OUTCOMES)).toEqual({ created: 0, valid: 2, skipped: 1, invalid: 2 });
  });

  it("lists the rows that will not be imported, in file order", () => {
    expect(problemRows(OUTCOMES).map((outcome) => outcome.row)).toEqual([4, 5, 9]);
  });

  it("writes them as CSV a spreadsheet opens safely and the parser reads back", () => {
    const text = reportCsv(problemRows(OUTCOMES));
    expect(text.split("\r\n")[0]).toBe("row,email,status,reasons");
    expect(text).toContain("'=evil@example.com");
    expect(parseCsv(text).records.map((record) => record.cells)).toEqual([
      {
        row: "4",
        email: "bob@example.com",
        status: "skipped",
        reasons: "email: the same as row 3; id: x, y",
      },
      { row: "5", email: "", status: "invalid", reasons: "email: is required; name: is required" },
      {
        row: "9",
        email: "'=evil@example.com",
        status: "invalid",
        reasons: "email: must be an email address",
      },
    ]);
  });
});
