import { useEffect, useState } from "preact/hooks";

/** `value`, once it has stayed the same for `delayMs` (a search box that waits for a pause in typing). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
