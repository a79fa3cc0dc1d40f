import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A modal on the native `<dialog>`: the browser traps focus, makes the page
 * behind inert and closes on Escape; focus returns to the opener when it
 * closes. `drawer` slides in from the right
 * (full screen on a phone). Mounted = open; `onClose` asks the owner to
 * unmount it.
 */
export function Dialog(props: {
  title: ComponentChildren;
  onClose: () => void;
  variant?: "modal" | "drawer";
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const owner = useRef(props.onClose);
  owner.current = props.onClose;
  // Escape fires both "cancel" and "close": tell the owner once.
  const done = useRef(false);
  const onClose = useRef(() => {
    if (done.current) return;
    done.current = true;
    owner.current();
  });

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement;
    dialog.showModal();
    const closed = () => onClose.current();
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose.current();
    };
    // A click on the backdrop lands on the <dialog> itself, outside its panel.
    const backdrop = (event: MouseEvent) => {
      if (event.target === dialog) onClose.current();
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
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
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
    </dialog>
  );
}
