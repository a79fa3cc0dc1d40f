import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { Dialog } from "./dialog.tsx";

/**
 * A dialog holding a secret the admin surface shows only once (a new API
 * key, an impersonation token). Escape and a click beside it do not discard
 * the secret: they bring up a notice instead, so the operator cannot lose it
 * by reflex; only Done or the close button close it.
 *
 * @example
 * ```tsx
 * <ShownOnceDialog title="API key ci" secretName="key" onClose={close}>
 *   <SecretField id={id} label="API key" value={secret} />
 * </ShownOnceDialog>
 * ```
 */
export function ShownOnceDialog(props: {
  title: string;
  /** What the notice calls the secret: "The key is not shown again …". */
  secretName: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const [kept, setKept] = useState(false);
  return (
    <Dialog title={props.title} onClose={props.onClose} onDismissAttempt={() => setKept(true)}>
      <div class="stack">
        {props.children}
        {kept ? (
          <p class="notice notice-info" role="alert">
            The {props.secretName} is not shown again once this closes. Copy it, then press Done.
          </p>
        ) : null}
        <div class="actions">
          <button type="button" class="btn btn-primary" onClick={props.onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
