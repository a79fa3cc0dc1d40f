import { useEffect, useId } from "preact/hooks";
import { useDraft } from "../lib/use-draft.ts";

const TYPING_DELAY_MS = 300;

/**
 * A text filter that reports its trimmed value after a 300 ms pause in
 * typing, so a list reloads once per word rather than once per key. It
 * follows `value` when the URL changes it from outside.
 *
 * @example
 * ```tsx
 * <DelayedFilter label="Function" value={fn} placeholder="messages:send" search onChange={setFn} />
 * ```
 */
export function DelayedFilter(props: {
  label: string;
  value: string;
  placeholder: string;
  /** Takes the row's free width (`field-grow`). */
  grow?: boolean;
  /** A `type="search"` field (the browser's search box, a clear button in some browsers). */
  search?: boolean;
  onChange: (value: string) => void;
}) {
  const [text, setText] = useDraft(props.value);
  const { onChange, value } = props;
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text.trim()), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  const id = useId();
  const input = {
    id,
    class: "input",
    value: text,
    placeholder: props.placeholder,
    onInput: (event: { currentTarget: HTMLInputElement }) => setText(event.currentTarget.value),
    spellcheck: false,
    autocomplete: "off",
  };
  return (
    <div class={props.grow ? "field field-grow" : "field"}>
      <label class="field-label" for={id}>
        {props.label}
      </label>
      {props.search ? <input type="search" {...input} /> : <input {...input} />}
    </div>
  );
}
