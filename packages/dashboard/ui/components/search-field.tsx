/**
 * The search box that filters a list as the operator types: a search input
 * whose label is read to screen readers only (the placeholder shows it).
 * The API, Functions, Data and Organizations pages filter with it alike.
 *
 * @example
 * ```tsx
 * <SearchField label="Filter operations" placeholder="Filter operations" value={query} onInput={setQuery} />
 * ```
 */
export function SearchField(props: {
  /** Read to screen readers. */
  label: string;
  placeholder: string;
  value: string;
  onInput: (value: string) => void;
  /** The field takes the row's free width (in a `.filters` row). */
  grow?: boolean;
  /** Names and keys, not prose: no spelling marks. */
  noSpellcheck?: boolean;
}) {
  return (
    <label class={props.grow === true ? "field field-grow" : "field"}>
      <span class="sr-only">{props.label}</span>
      <input
        class="input input-search"
        type="search"
        placeholder={props.placeholder}
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
        spellcheck={props.noSpellcheck === true ? false : undefined}
      />
    </label>
  );
}
