import { CopyButton } from "./copy-button.tsx";

/**
 * A secret the admin surface shows only once (an impersonation token, a new
 * API key): read-only, selected on focus, with a focused Copy button, and
 * described by the element `${id}-use` that says how to send it.
 *
 * @example
 * ```tsx
 * <SecretField id={id} label="API key" value={secret} />
 * <div id={`${id}-use`}>Send it in an x-api-key header.</div>
 * ```
 */
export function SecretField(props: { id: string; label: string; value: string }) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      <div class="token-row">
        <input
          id={props.id}
          class="input mono token"
          readOnly
          value={props.value}
          onFocus={(event) => event.currentTarget.select()}
          aria-describedby={`${props.id}-use`}
        />
        <CopyButton value={props.value} fallbackTarget={props.id} autofocus />
      </div>
    </label>
  );
}
