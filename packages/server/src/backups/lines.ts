import { lineError, MAX_BACKUP_LINE_BYTES } from "./format.ts";

/** One line of an NDJSON body, numbered from 1. */
export interface NumberedLine {
  number: number;
  text: string;
}

const NEWLINE = 0x0a;

/**
 * Splits an NDJSON byte stream into numbered lines without holding more than
 * one line (and one chunk) in memory. Blank lines are skipped but counted, so
 * numbers match what an editor shows; a line over
 * {@link MAX_BACKUP_LINE_BYTES} is refused with its number.
 *
 * @example
 * ```ts
 * for await (const { number, text } of ndjsonLines(request.body)) …
 * ```
 */
export async function* ndjsonLines(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<NumberedLine, void, undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let parts: Uint8Array[] = [];
  let size = 0;
  let number = 0;
  const take = (): NumberedLine | undefined => {
    number += 1;
    const bytes = join(parts, size);
    parts = [];
    size = 0;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw lineError(number, "not valid UTF-8");
    }
    return text.trim() === "" ? undefined : { number, text };
  };
  for await (const chunk of chunksOf(body)) {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      add(chunk.subarray(start, at));
      const line = take();
      if (line !== undefined) yield line;
      start = at + 1;
    }
    add(chunk.subarray(start));
  }
  if (size > 0) {
    const line = take();
    if (line !== undefined) yield line;
  }

  function add(piece: Uint8Array): void {
    if (piece.byteLength === 0) return;
    size += piece.byteLength;
    if (size > MAX_BACKUP_LINE_BYTES) {
      throw lineError(number + 1, `longer than ${MAX_BACKUP_LINE_BYTES} bytes`);
    }
    parts.push(piece);
  }
}

/**
 * The chunks of a byte stream. A reader loop rather than `for await` over the
 * stream itself, which not every type library declares.
 */
export async function* chunksOf(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
