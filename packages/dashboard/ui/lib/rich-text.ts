/**
 * The parsing half of `RichText`: the little Markdown that OpenAPI
 * descriptions use, split into paragraphs and `code` parts. Pure, so it is
 * unit-tested in Node.
 */

/** A run of plain text or inline code, keyed by its offset in the source. */
export interface RichTextPart {
  at: number;
  text: string;
  code: boolean;
}

/** Splits text into paragraphs (blank lines) and parts (`code` or not), keyed by their offsets. */
export function parseRichText(text: string): { at: number; parts: RichTextPart[] }[] {
  const paragraphs: { at: number; parts: RichTextPart[] }[] = [];
  const blocks = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g;
  for (const block of text.matchAll(blocks)) {
    if (block[0].trim() === "") continue;
    const parts: RichTextPart[] = [];
    for (const piece of block[0].matchAll(/`([^`]+)`|[^`]+|`/g)) {
      const at = block.index + piece.index;
      parts.push(
        piece[1] !== undefined
          ? { at, text: piece[1], code: true }
          : { at, text: piece[0], code: false },
      );
    }
    paragraphs.push({ at: block.index, parts });
  }
  return paragraphs;
}
