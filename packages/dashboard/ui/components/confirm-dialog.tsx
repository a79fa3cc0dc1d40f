import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { useSubmit } from "../lib/use-submit.ts";
import { Dialog } from "./dialog.tsx";
import { FormActions } from "./form-parts.tsx";

/**
 * "Are you sure?" for anything that cannot be undone. Runs the action itself
 * so the button shows progress and a refusal (409 last admin, ...) appears in
 * place, with the server's words. `requireText` makes the operator type a
 * value (the user's email) before a delete is allowed. A `danger`
 * confirmation opens with the focus on Cancel. `focusAfter` names where
 * focus goes once the action succeeded (the list's heading, when the
 * confirmed item is gone); a cancel returns it to the opener.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  requireText?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  focusAfter?: () => HTMLElement | null;
}) {
  const [typed, setTyped] = useState("");
  const confirmed = useRef(false);
  const ready = props.requireText === undefined || typed.trim() === props.requireText;
  const { busy, error, submit } = useSubmit(async () => {
    if (!ready) return;
    await props.onConfirm();
    confirmed.current = true;
    props.onClose();
  });

  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      returnFocus={() => (confirmed.current ? (props.focusAfter?.() ?? null) : null)}
    >
      <form class="stack" onSubmit={submit}>
        <div class="confirm-text">{props.children}</div>
        {props.requireText !== undefined ? (
          <label class="field">
            <span class="field-label">
              Type <strong>{props.requireText}</strong> to confirm
            </span>
            <input
              class="input"
              value={typed}
              onInput={(event) => setTyped(event.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
          </label>
        ) : null}
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label={props.confirmLabel}
          busyLabel="Working…"
          tone={props.danger ? "danger" : "primary"}
          disabled={!ready}
          focus={props.danger ? "cancel" : "submit"}
        />
      </form>
    </Dialog>
  );
}
