/** First characters that make a spreadsheet run a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV record (RFC 4180), ending in CRLF: cells with a comma, quote or
 * line break are quoted, quotes doubled; `null`/`undefined` is an empty cell.
 * A text cell a spreadsheet would run as a formula is prefixed with `'`
 * (OWASP's advice), which {@link parseCsv} removes again.
 *
 * @example
 * ```ts
 * csvRow(["u1", "Ann, Jr.", "=1+1", null]); // 'u1,"Ann, Jr.",\'=1+1,\r\n'
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

/**
 * Reads CSV text into records of named cells (the first record is the
 * header), undoing {@link csvRow}'s formula guard. Quoted cells may hold
 * commas, quotes and line breaks; an empty cell reads as `""`.
 *
 * @throws {Error} with the line number, for an unclosed quote or a record whose cell count differs from the header's
 * @example
 * ```ts
 * parseCsv("id,email\r\nu1,ann@example.com\r\n"); // [{ id: "u1", email: "ann@example.com" }]
 * ```
 */
export function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      record.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      line++;
    } else cell += char;
  }
  if (quoted) throw new Error(`line ${line}: a quoted cell is not closed`);
  if (cell !== "" || record.length > 0) records.push([...record, cell]);
  const [header, ...rows] = records.filter((cells) => !(cells.length === 1 && cells[0] === ""));
  if (header === undefined) return [];
  return rows.map((cells, index) => {
    if (cells.length !== header.length) {
      throw new Error(
        `record ${index + 2}: ${cells.length} cells, the header has ${header.length}`,
      );
    }
    return Object.fromEntries(header.map((name, column) => [name, unguard(cells[column]!)]));
  });
}

function unguard(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
