import type { CallRecord } from "../record.ts";

/**
 * Records as the log store's `write` takes them: each one's JSON text. The
 * worker's shipper sends its batches through this, and so does anything else
 * that writes to a store (a seed script, a test).
 *
 * @example
 * ```ts
 * await store.write(recordBodies([record]));
 * ```
 */
export function recordBodies(records: readonly CallRecord[]): string[] {
  return records.map((record) => JSON.stringify(record));
}

/**
 * The records of a batch given to the store's `write`, refusing one that is
 * not an array of records' JSON texts (nothing of it is stored then), with
 * the position of the first bad item in the message.
 *
 * @example parseBodies(['{"requestId":"r1",…}']) // [{ requestId: "r1", … }]
 */
export function parseBodies(bodies: unknown): CallRecord[] {
  if (!Array.isArray(bodies)) {
    throw new TypeError("svc: the log store's write takes an array of records' JSON texts");
  }
  return bodies.map((body, index) => {
    const record: unknown = typeof body === "string" ? safeParse(body) : undefined;
    if (typeof record !== "object" || record === null || !("requestId" in record)) {
      throw new TypeError(
        `svc: the log store's write takes records' JSON texts (JSON.stringify(record)); item ${index} is not one`,
      );
    }
    return record as CallRecord;
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
