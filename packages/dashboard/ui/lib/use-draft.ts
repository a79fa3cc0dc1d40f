import { useEffect, useRef, useState } from "preact/hooks";

/**
 * The text of a field whose committed value lives elsewhere (the URL): it
 * starts at `value` and follows it when `value` changes from outside (back,
 * a link), never otherwise. Why not `useEffect(() => setText(value),
 * [value])`: that effect also runs once after the first paint, and wiped
 * out whatever was typed before it (a fast typist; a browser test on a
 * loaded machine, which then waited for a search that never came).
 *
 * @example
 * ```tsx
 * const [search, setSearch] = useDraft(query);
 * <input value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
 * ```
 */
export function useDraft(value: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(value);
  const followed = useRef(value);
  useEffect(() => {
    if (followed.current === value) return;
    followed.current = value;
    setDraft(value);
  }, [value]);
  return [draft, setDraft];
}
