import { SvcError } from "./svc-error.ts";

/** Message sent for every unexpected failure; the real one is logged, never returned. */
export const INTERNAL_MESSAGE = "An internal error occurred.";

/**
 * Turns anything thrown into an {@link SvcError}. Unknown throws become
 * `INTERNAL` with a fixed message and are logged server-side, so no stack trace
 * or internal message ever reaches a client.
 */
export function normalizeError(
  thrown: unknown,
  log: (message: string, error: unknown) => void = logInternal,
): SvcError {
  if (thrown instanceof SvcError) return thrown;
  log("svc: unhandled error", thrown);
  return new SvcError("INTERNAL", INTERNAL_MESSAGE);
}

function logInternal(message: string, error: unknown): void {
  console.error(message, error);
}
