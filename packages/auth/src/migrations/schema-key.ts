import type { BetterAuthOptions } from "better-auth";
import { getSchema } from "better-auth/db";

const keys = new WeakMap<object, string>();

/**
 * A string that is equal for two option objects exactly when better-auth would
 * create the same tables, columns, indexes and id type for them: the cache key
 * of `ensureMigrated`. Remembered per options object, so a warm isolate pays
 * for it once.
 */
export function schemaKey(options: BetterAuthOptions): string {
  const known = keys.get(options);
  if (known !== undefined) return known;
  const generateId = options.advanced?.database?.generateId;
  const key = stableStringify({
    schema: getSchema(options),
    generateId: typeof generateId === "function" ? "custom" : (generateId ?? "default"),
  });
  keys.set(options, key);
  return key;
}

/** `JSON.stringify` with object keys sorted, so equal schemas give equal strings. */
function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const entries = Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  });
}
