import { useRef } from "react";

/**
 * @internal `make()`'s result, made again only when `owner` or `key` changes:
 * a memo keyed by a string that stands for several values (a query's path,
 * arguments and shard), which `useMemo`'s dependency list cannot say.
 * Rendering twice (StrictMode) with the same key makes nothing new.
 */
export function useKeyed<T>(owner: object, key: string, make: () => T): T {
  const cache = useRef<{ owner: object; key: string; value: T } | null>(null);
  if (cache.current === null || cache.current.owner !== owner || cache.current.key !== key) {
    cache.current = { owner, key, value: make() };
  }
  return cache.current.value;
}
