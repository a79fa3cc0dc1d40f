const SHAPES: readonly [RegExp, string][] = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>"],
  [/"[^"\n]*"/g, '"…"'],
  [/'[^'\n]*'/g, "'…'"],
  [/\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{12,}\b/g, "<id>"],
  [/\d+(\.\d+)?/g, "<n>"],
];

/**
 * An error message with its variable parts (ids, quoted values, numbers)
 * replaced by placeholders, so "No user 8f3…" and "No user a91…" are one
 * group. At most 200 characters.
 *
 * @example messageShape('Row "k1" is 42 bytes too long') // 'Row "…" is <n> bytes too long'
 */
export function messageShape(message: string): string {
  let shape = message;
  for (const [pattern, placeholder] of SHAPES) shape = shape.replace(pattern, placeholder);
  return shape.slice(0, 200);
}
