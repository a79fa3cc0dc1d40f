import { ErrorNotice } from "./states.tsx";

/**
 * The foot of every dialog form: the refusal's `detail` when the last submit
 * failed, then Cancel and the submit button. The submit button is disabled
 * while the request runs (and when `disabled`), and says `busyLabel` then, so
 * a double click never sends twice.
 *
 * @example
 * ```tsx
 * <FormActions error={error} busy={busy} onCancel={props.onClose} label="Ban user" busyLabel="Banning…" tone="danger" />
 * ```
 */
export function FormActions(props: {
  error: Error | null;
  busy: boolean;
  onCancel: () => void;
  label: string;
  busyLabel: string;
  tone?: "primary" | "danger";
  disabled?: boolean;
  autofocus?: boolean;
}) {
  return (
    <>
      {props.error ? <ErrorNotice error={props.error} compact /> : null}
      <div class="actions">
        <button type="button" class="btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          class={props.tone === "danger" ? "btn btn-danger" : "btn btn-primary"}
          disabled={props.busy || props.disabled === true}
          autofocus={props.autofocus}
        >
          {props.busy ? props.busyLabel : props.label}
        </button>
      </div>
    </>
  );
}

/**
 * The optional "reason" field of an admin action that the audit trail keeps
 * (ban, impersonate). First field of its dialog, so it takes the focus.
 *
 * @example
 * ```tsx
 * <AuditReasonField value={reason} onInput={setReason} />
 * ```
 */
export function AuditReasonField(props: { value: string; onInput: (value: string) => void }) {
  return (
    <label class="field">
      <span class="field-label">
        Reason <span class="muted">(optional, kept in the audit trail)</span>
      </span>
      <input
        class="input"
        name="reason"
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
        autofocus
        autocomplete="off"
      />
    </label>
  );
}
