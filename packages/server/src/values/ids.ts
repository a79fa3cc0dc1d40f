const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 26;

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

/**
 * The table an id belongs to, or `undefined` when `value` is not an id. Runs
 * on every `ctx.db.get` and every `v.id()` check: the suffix is checked in
 * place, with no regular expression or copy of it.
 *
 * @example
 * ```ts
 * tableOfId("messages_0123456789abcdefghijklmnop"); // "messages"
 * tableOfId("messages"); // undefined
 * ```
 */
export function tableOfId(value: string): string | undefined {
  const cut = value.lastIndexOf("_");
  if (cut <= 0 || value.length - cut - 1 !== RANDOM_LENGTH) return undefined;
  for (let i = cut + 1; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // 0-9 or a-z: the id alphabet.
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 122))) return undefined;
  }
  return value.slice(0, cut);
}

/** True when `value` is an id of `table`. */
export function isIdOf(table: string, value: string): boolean {
  return tableOfId(value) === table;
}
