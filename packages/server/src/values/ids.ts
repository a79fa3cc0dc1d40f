const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 26;
const SUFFIX = /^[0-9a-z]{26}$/;

/**
 * A new document id for `table`: `<table>_<26 random base36 chars>` (~134 bits).
 * The table prefix lets `ctx.db.get(id)` find the table without a lookup.
 */
export function newId(table: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_LENGTH));
  let suffix = "";
  for (const byte of bytes) suffix += ALPHABET[byte % 36];
  return `${table}_${suffix}`;
}

/** The table an id belongs to, or `undefined` when `value` is not an id. */
export function tableOfId(value: string): string | undefined {
  const cut = value.lastIndexOf("_");
  if (cut <= 0 || !SUFFIX.test(value.slice(cut + 1))) return undefined;
  return value.slice(0, cut);
}

/** True when `value` is an id of `table`. */
export function isIdOf(table: string, value: string): boolean {
  return tableOfId(value) === table;
}
