/**
 * Sets an own, enumerable property. Unlike `object[key] = value`, a key named
 * `__proto__` (which clients can send in JSON bodies and query strings)
 * becomes a plain field instead of replacing the object's prototype.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
