/**
 * Length of a string in Unicode code points: the unit JSON Schema's
 * `minLength` / `maxLength` (and so OpenAPI's) count in, where JavaScript's
 * `length` counts UTF-16 units (an emoji is 2). A lone surrogate counts as
 * one, as JSON Schema validators count it. Stops counting once the count
 * passes `atMost` (the answer then only means "more than `atMost`"), so a
 * bound check on a megabyte string costs what the bound costs.
 *
 * @example codePointLength("😀a") // 2 ("😀a".length is 3)
 */
export function codePointLength(text: string, atMost = Number.POSITIVE_INFINITY): number {
  // Every code point is one or two units: the length is between length / 2 and length.
  if (text.length <= 1) return text.length;
  let count = 0;
  for (let index = 0; index < text.length && count <= atMost; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}
