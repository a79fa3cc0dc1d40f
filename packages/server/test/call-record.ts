import type { CallRecord } from "../src/index.ts";

/**
 * A finished call's record as the worker would send it to the log store: a
 * successful anonymous RPC of 1 ms, now, with the given fields on top. Tests
 * that write to the store directly build their records with it.
 *
 * @example
 * ```ts
 * await store.write(recordBodies([callRecord({ requestId: "req-1", route: "x:y" })]));
 * ```
 */
export function callRecord(fields: Partial<CallRecord> & { requestId: string }): CallRecord {
  return {
    time: new Date().toISOString(),
    entry: "rpc",
    route: "x:y",
    method: "POST",
    shardKey: "default",
    caller: { kind: "anonymous" },
    status: 200,
    code: null,
    durationMs: 1,
    bytesIn: 0,
    bytesOut: 0,
    logs: [],
    logsDropped: 0,
    error: null,
    ...fields,
  };
}
