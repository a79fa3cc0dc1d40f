import { Fragment } from "preact";

/**
 * Splits a name or key after each `:`, `.`, `/`, `-` and `_`, the places a
 * line may break ("messages:" | "send", "svc-backups/" | "room-1/").
 *
 * @example namePartsOf("messages:send") // ["messages:", "send"]
 */
export function namePartsOf(text: string): string[] {
  return text.match(/[^:./_-]*(?:[:./_-]+|$)/g)?.filter((part) => part !== "") ?? [text];
}

/**
 * A procedure name, shard key or migration name that never breaks inside a
 * word: a line may break after each part of {@link namePartsOf} (`<wbr>`),
 * and the name does not take part in a narrow column's "break anywhere"
 * sizing, so a table column is at least as wide as its longest part. Only
 * a part wider than the whole column still wraps. The text stays one
 * string for screen readers and search; the full name is in the title.
 *
 * @example <NameText text="messages:send" />
 */
export function NameText(props: { text: string }) {
  let offset = 0;
  const parts = namePartsOf(props.text).map((part) => {
    const at = offset;
    offset += part.length;
    return { part, at };
  });
  return (
    <span class="name-text" title={props.text}>
      {parts.map(({ part, at }) => (
        <Fragment key={at}>
          {part}
          {at + part.length < props.text.length ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
