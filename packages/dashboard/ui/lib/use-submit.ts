import { useState } from "preact/hooks";

/**
 * Submit handling shared by the action dialogs: prevents the page post,
 * blocks double submits, and keeps the refusal (with the server's `detail`)
 * to show beside the form instead of closing it.
 */
export function useSubmit(action: () => Promise<void>): {
  busy: boolean;
  error: Error | null;
  submit(event: Event): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  return {
    busy,
    error,
    async submit(event) {
      event.preventDefault();
      if (busy) return;
      setBusy(true);
      setError(null);
      try {
        await action();
      } catch (thrown) {
        setError(thrown instanceof Error ? thrown : new Error(String(thrown)));
      } finally {
        setBusy(false);
      }
    },
  };
}
