import { FACTS_LAYOUT, type RecordFacts, recordOf } from "../build-record.ts";
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
 * not an array of records' JSON texts or records' facts (nothing of it is
 * stored then), with the position of the first bad item in the message. A
 * worker's shipper sends facts (`RecordFacts`, an array's text): the record
 * is made from them here, off the calls' path.
 *
 * @example parseBodies(['{"requestId":"r1",…}']) // [{ requestId: "r1", … }]
 */
export function parseBodies(bodies: unknown): CallRecord[] {
  if (!Array.isArray(bodies)) {
    throw new TypeError("svc: the log store's write takes an array of records' JSON texts");
  }
  return bodies.map((body, index) => {
    const parsed: unknown = typeof body === "string" ? safeParse(body) : undefined;
    const record = isFacts(parsed) ? recordOf(parsed) : parsed;
    if (typeof record !== "object" || record === null || !("requestId" in record)) {
      throw new TypeError(
        `svc: the log store's write takes records' JSON texts (JSON.stringify(record)); item ${index} is not one`,
      );
    }
    return record as CallRecord;
  });
}

/**
 * The JSON text the store keeps for each record of a batch: the text it was
 * given, or, for facts, the record's own text (the same bytes the worker
 * made before it sent facts).
 *
 * @example const texts = storedBodies(bodies, parseBodies(bodies));
 */
export function storedBodies(bodies: readonly string[], records: readonly CallRecord[]): string[] {
  return bodies.map((body, index) =>
    body.startsWith("[") ? JSON.stringify(records[index]) : body,
  );
}

/** A record's facts as a worker's shipper sends them: their layout first, then the fields. */
function isFacts(value: unknown): value is RecordFacts {
  return (
    Array.isArray(value) &&
    value[0] === FACTS_LAYOUT &&
    value.length >= 16 &&
    typeof value[1] === "string"
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
