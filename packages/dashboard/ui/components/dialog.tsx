import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { ToastOutlet } from "./toasts.tsx";

/**
 * A modal on the native `<dialog>`: the browser traps focus, makes the page
 * behind inert and closes on Escape; focus returns to the opener when it
 * closes. `drawer` slides in from the right
 * (full screen on a phone). Mounted = open; `onClose` asks the owner to
 * unmount it. With `onDismissAttempt`, Escape and a backdrop click call it
 * instead of closing (for a dialog that holds something shown only once);
 * the close button and the dialog's own buttons still close it. Toasts
 * raised while it is open appear inside it, above its backdrop.
 * `returnFocus` names where focus goes instead of the opener, when the
 * dialog's action removed the opener's item (a deleted user, a revoked
 * session): focus would otherwise fall to the page body.
 */
export function Dialog(props: {
  title: ComponentChildren;
  onClose: () => void;
  onDismissAttempt?: () => void;
  returnFocus?: () => HTMLElement | null;
  variant?: "modal" | "drawer";
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const owner = useRef(props.onClose);
  owner.current = props.onClose;
  const attempt = useRef(props.onDismissAttempt);
  attempt.current = props.onDismissAttempt;
  const returnFocus = useRef(props.returnFocus);
  returnFocus.current = props.returnFocus;

  // Escape fires both "cancel" and "close": tell the owner once.
  const done = useRef(false);
  const onClose = useRef(() => {
    if (done.current) return;
    done.current = true;
    owner.current();
  });
  const dismiss = () => (attempt.current ? attempt.current() : onClose.current());

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement;
    dialog.showModal();
    // Chromium closes a dialog on a repeated Escape even when "cancel" is
    // refused; one that must stay open opens again.
    const closed = () => {
      if (attempt.current === undefined) return onClose.current();
      dialog.showModal();
      attempt.current();
    };
    const cancel = (event: Event) => {
      event.preventDefault();
      dismiss();
    };
    // A click on the backdrop lands on the <dialog> itself, outside its panel.
    const backdrop = (event: MouseEvent) => {
      if (event.target === dialog) dismiss();
    };
    dialog.addEventListener("close", closed);
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("click", backdrop);
    return () => {
      dialog.removeEventListener("close", closed);
      dialog.removeEventListener("cancel", cancel);
      dialog.removeEventListener("click", backdrop);
      if (dialog.open) dialog.close();
      // Back to the control that opened it (the row link, the action button).
      const target = returnFocus.current?.() ?? opener;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    };
  }, []);

  const variant = props.variant ?? "modal";
  return (
    <dialog ref={ref} class={`dialog dialog-${variant}`} aria-labelledby={titleId}>
      <div class="dialog-panel">
        <header class="dialog-header">
          <h2 id={titleId} class="dialog-title">
            {props.title}
          </h2>
          <button
            type="button"
            class="btn btn-icon btn-ghost dialog-close"
            aria-label="Close"
            onClick={() => onClose.current()}
          >
            ×
          </button>
        </header>
        <div class="dialog-body">{props.children}</div>
      </div>
      <ToastOutlet />
    </dialog>
  );
}
