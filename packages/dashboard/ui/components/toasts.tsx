import { type ComponentChildren, createContext } from "preact";
import { useCallback, useContext, useState } from "preact/hooks";

interface Toast {
  id: number;
  text: string;
  tone: "ok" | "error";
}

type Notify = (text: string, tone?: "ok" | "error") => void;

const ToastContext = createContext<Notify>(() => {});

const TOAST_MS = 4000;

/**
 * Short confirmations after an action ("Sessions revoked"), announced by
 * screen readers through a polite live region and gone after a few seconds.
 */
export function ToastProvider(props: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const notify = useCallback<Notify>((text, tone = "ok") => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list, { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), TOAST_MS);
  }, []);
  return (
    <ToastContext.Provider value={notify}>
      {props.children}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} class={`toast toast-${toast.tone}`}>
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows a toast from anywhere below {@link ToastProvider}. */
export function useToast(): Notify {
  return useContext(ToastContext);
}
