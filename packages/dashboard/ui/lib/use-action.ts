import { useState } from "preact/hooks";
import { useToast } from "../components/toasts.tsx";

/**
 * Runs one-click actions (unban, ...) with a busy flag so the button cannot
 * be pressed twice, a toast on success, and the server's `detail` in an
 * error toast on failure: no admin action ends silently.
 */
export function useAction(): {
  busy: boolean;
  run(action: () => Promise<unknown>, success: string): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const notify = useToast();
  return {
    busy,
    async run(action, success) {
      if (busy) return;
      setBusy(true);
      try {
        await action();
        notify(success);
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), "error");
      } finally {
        setBusy(false);
      }
    },
  };
}
