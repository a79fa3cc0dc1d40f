import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import { ErrorNotice } from "./states.tsx";

/**
 * The foot of every dialog form: the refusal's `detail` when the last submit
 * failed, then Cancel and the submit button. The submit button is disabled
 * while the request runs (and when `disabled`), and says `busyLabel` then, so
 * a double click never sends twice. `focus: "cancel"` opens a destructive
 * confirmation on Cancel, so a reflexive Enter never confirms it.
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
  focus?: "submit" | "cancel";
}) {
  return (
    <>
      {props.error ? <ErrorNotice error={props.error} compact /> : null}
      <div class="actions">
        <button
          type="button"
          class="btn"
          onClick={props.onCancel}
          autofocus={props.focus === "cancel"}
        >
          Cancel
        </button>
        <button
          type="submit"
          class={props.tone === "danger" ? "btn btn-danger" : "btn btn-primary"}
          disabled={props.busy || props.disabled === true}
          autofocus={props.focus === "submit"}
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

/** What a {@link Field} gives its control, so the label, hint and problem belong to it. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A labelled form control with an optional hint and the problem found with
 * its value, both tied to it (`aria-describedby`, `aria-invalid`) so a screen
 * reader reads them with the field. `children` renders the control (an
 * input, a select, a textarea) from the props it must carry.
 *
 * @example
 * ```tsx
 * <Field label="Metadata" problem={problems.metadata}>{(control) => <textarea {...control} class="input" />}</Field>
 * ```
 */
export function Field(props: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  problem?: string | undefined;
  children: (control: ControlProps) => ComponentChildren;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const describedBy = [props.hint ? hintId : null, props.problem ? problemId : null]
    .filter((part) => part !== null)
    .join(" ");
  return (
    <div class="field">
      <label class="field-label" for={id}>
        {props.label}
      </label>
      {props.children({
        id,
        "aria-invalid": props.problem ? true : undefined,
        "aria-describedby": describedBy === "" ? undefined : describedBy,
      })}
      {props.hint ? (
        <p id={hintId} class="field-hint">
          {props.hint}
        </p>
      ) : null}
      {props.problem ? (
        <p id={problemId} class="field-problem">
          {props.problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A labelled text input (see {@link Field}).
 *
 * @example
 * ```tsx
 * <TextField label="Email" name="email" type="email" value={email} onInput={setEmail} problem={problems.email} />
 * ```
 */
export function TextField(props: {
  label: ComponentChildren;
  name: string;
  value: string;
  onInput: (value: string) => void;
  type?: "text" | "email" | "url" | "number" | "password" | "datetime-local";
  hint?: ComponentChildren;
  problem?: string | undefined;
  autofocus?: boolean;
  autocomplete?: string;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
}) {
  return (
    <Field label={props.label} hint={props.hint} problem={props.problem}>
      {(control) => (
        <input
          {...control}
          class={props.problem ? "input input-invalid" : "input"}
          name={props.name}
          // Preact types each input type apart; all of these take the same attributes here.
          type={(props.type ?? "text") as "text"}
          value={props.value}
          onInput={(event) => props.onInput(event.currentTarget.value)}
          autofocus={props.autofocus}
          autocomplete={props.autocomplete ?? "off"}
          spellcheck={false}
          list={props.list}
        />
      )}
    </Field>
  );
}
