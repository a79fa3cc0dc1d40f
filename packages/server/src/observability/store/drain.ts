import type { CallRecord } from "../record.ts";

/**
 * Somewhere call records are delivered beyond the store, such as an
 * OpenTelemetry endpoint (`otlpDrain` from `@svc/server/otlp`). The store
 * sends each drain the records written after the last batch it took, in
 * write order, and retries a failed batch with backoff: delivery is
 * at-least-once (a batch the receiver took but whose answer was lost is sent
 * again), never out of order, never skipped while the records are stored.
 */
export interface LogDrain {
  /** Unique per store: the store remembers how far each drain got by this name. */
  readonly name: string;
  /** Records per delivery. @default 200 */
  readonly batchSize?: number;
  /** Delivers a batch; throwing (or rejecting) means "not taken": the same records come again. */
  send(records: readonly CallRecord[]): Promise<void>;
}
