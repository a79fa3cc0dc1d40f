import { type ComponentChildren, createContext } from "preact";
import { useCallback, useContext, useId, useLayoutEffect, useMemo, useState } from "preact/hooks";

interface Toast {
  id: number;
  text: string;
  tone: "ok" | "error";
}

type Notify = (text: string, tone?: "ok" | "error") => void;

/** The toasts, and which outlet shows them: the last one opened, else the page's own. */
interface ToastLayer {
  toasts: Toast[];
  top: string | null;
  enter(id: string): void;
  leave(id: string): void;
}

const NotifyContext = createContext<Notify>(() => {});
const LayerContext = createContext<ToastLayer | null>(null);

const TOAST_MS = 4000;

/**
 * Short confirmations after an action ("Sessions revoked"), announced by
 * screen readers through a polite live region and gone after a few seconds.
 * They appear in the topmost {@link ToastOutlet}: an open dialog has its own,
 * since a modal `<dialog>` sits in the browser's top layer above the page and
 * makes the page behind it inert (a toast there would be hidden and silent).
 */
export function ToastProvider(props: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [outlets, setOutlets] = useState<string[]>([]);
  const notify = useCallback<Notify>((text, tone = "ok") => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list, { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), TOAST_MS);
  }, []);
  const enter = useCallback((id: string) => setOutlets((list) => [...list, id]), []);
  const leave = useCallback(
    (id: string) => setOutlets((list) => list.filter((outlet) => outlet !== id)),
    [],
  );
  const layer = useMemo<ToastLayer>(
    () => ({ toasts, top: outlets.at(-1) ?? null, enter, leave }),
    [toasts, outlets, enter, leave],
  );
  return (
    <NotifyContext.Provider value={notify}>
      <LayerContext.Provider value={layer}>
        {props.children}
        <ToastOutlet page />
      </LayerContext.Provider>
    </NotifyContext.Provider>
  );
}

/**
 * A live region where toasts can appear. Every dialog renders one inside its
 * `<dialog>`; the last one mounted shows the toasts, the others stay empty
 * (but present, so a screen reader announces text as soon as it lands in
 * one). `page` marks the provider's own outlet, used when no dialog is open.
 */
export function ToastOutlet(props: { page?: boolean }) {
  const layer = useContext(LayerContext);
  const id = useId();
  const page = props.page === true;
  useLayoutEffect(() => {
    if (layer === null || page) return;
    layer.enter(id);
    return () => layer.leave(id);
  }, []);
  const shown = layer !== null && (page ? layer.top === null : layer.top === id);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {shown
        ? layer.toasts.map((toast) => (
            <div key={toast.id} class={`toast toast-${toast.tone}`}>
              {toast.text}
            </div>
          ))
        : null}
    </div>
  );
}

/** Shows a toast from anywhere below {@link ToastProvider}. */
export function useToast(): Notify {
  return useContext(NotifyContext);
}
