/**
 * CSV (RFC 4180) as the admin API writes and reads it, in one codec for both
 * ends: `GET users/export` writes with {@link csvRow}, `POST users/import`
 * reads with {@link parseCsv}, and the dashboard uses the same functions to
 * read a user's file in the browser (to check it and send it in chunks) and
 * to write its import report. Spreadsheets save CSV with quoted cells,
 * doubled quotes, CRLF, line breaks inside quotes and a byte-order mark; all
 * of them read back exactly. It imports nothing, so a browser bundle can
 * load it.
 */

/** First characters that make a spreadsheet run a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV text that cannot be read, with the line where reading stopped.
 *
 * @example
 * ```ts
 * try { parseCsv(text); } catch (error) { if (error instanceof CsvError) show(error.line, error.message); }
 * ```
 */
export class CsvError extends Error {
  override readonly name = "CsvError";
  /** The line (1 is the header) of the record that could not be read. */
  readonly line: number;

  constructor(line: number, message: string) {
    super(`Line ${line}: ${message}`);
    this.line = line;
  }
}

/** One record of a CSV text: its cells by header name, and the line it starts on (the header is line 1). */
export interface CsvRecord {
  line: number;
  cells: Record<string, string>;
}

/** A CSV text read: its header row and its records. */
export interface CsvTable {
  header: string[];
  records: CsvRecord[];
}

/**
 * Reads CSV text whose first record is the header. Quoted cells may hold
 * commas, doubled quotes and line breaks (LF or CRLF); blank lines are
 * skipped; a UTF-8 byte-order mark (Excel writes one) is ignored; header
 * names are trimmed. Cells are returned as written: {@link unguardFormula}
 * removes the export's formula guard.
 *
 * @throws {CsvError} for an unclosed quote, an empty or repeated header name, or a record with a different number of cells than the header
 * @example
 * ```ts
 * parseCsv('id,name\r\nu1,"Ann ""A"", Jr."\r\n').records[0];
 * // { line: 2, cells: { id: "u1", name: 'Ann "A", Jr.' } }
 * ```
 */
export function parseCsv(text: string): CsvTable {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === "")) rows.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else cell += char;
  }
  if (quoted) throw new CsvError(start, "a quoted cell is not closed.");
  if (cell !== "" || cells.length > 0) endRecord();
  const [first, ...rest] = rows;
  if (first === undefined) return { header: [], records: [] };
  const header = first.cells.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (name === "") throw new CsvError(1, "the header has an empty column name.");
    if (seen.has(name)) throw new CsvError(1, `the header names "${name}" twice.`);
    seen.add(name);
  }
  const records = rest.map((row) => {
    if (row.cells.length !== header.length) {
      throw new CsvError(
        row.line,
        `${row.cells.length} cells, but the header has ${header.length}.`,
      );
    }
    return {
      line: row.line,
      cells: Object.fromEntries(header.map((name, column) => [name, row.cells[column]!])),
    };
  });
  return { header, records };
}

/**
 * Removes the `'` that {@link csvRow} puts before a cell a spreadsheet would
 * run as a formula (`'=1+1` → `=1+1`); other cells are unchanged.
 *
 * @example
 * ```ts
 * unguardFormula("'=1+1"); // "=1+1"
 * unguardFormula("'quoted"); // "'quoted"
 * ```
 */
export function unguardFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * A CSV text read the way {@link csvRow} wrote it: {@link parseCsv}, then
 * the formula guard removed from every cell ({@link unguardFormula}). What
 * an import reads, on the server and in the dashboard.
 *
 * @throws {CsvError} as {@link parseCsv}
 * @example
 * ```ts
 * readCsvTable("email,name\r\nann@example.com,'=Ann\r\n").records;
 * // [{ line: 2, cells: { email: "ann@example.com", name: "=Ann" } }]
 * ```
 */
export function readCsvTable(text: string): CsvTable {
  const { header, records } = parseCsv(text);
  return {
    header,
    records: records.map(({ line, cells }) => ({
      line,
      cells: Object.fromEntries(
        Object.entries(cells).map(([column, cell]) => [column, unguardFormula(cell)]),
      ),
    })),
  };
}

/**
 * One CSV record ending in CRLF, for a file a person opens in a spreadsheet:
 * cells with a comma, quote or line break are quoted (quotes doubled),
 * `null` and `undefined` are empty cells, and a text cell a spreadsheet would
 * run as a formula gets a leading `'` (OWASP's advice), which
 * {@link unguardFormula} removes again.
 *
 * @example
 * ```ts
 * csvRow([2, "ann@example.com", "=cmd", 'say "hi", bye', null]); // '2,ann@example.com,\'=cmd,"say ""hi"", bye",\r\n'
 * ```
 */
export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
