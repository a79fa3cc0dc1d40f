import type { SerializedError } from "../errors/svc-error.ts";
import type { ShardGateAnswer, ShardGateCall } from "../limits/shard-gate.ts";
import type { Transport } from "../model/call-meta.ts";
import type { Identity } from "../model/identity.ts";
import type { ShardObservation } from "../observability/call-scope.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import type { ShardAdminRequest, ShardAdminResult } from "../studio/shard-protocol.ts";

/** One call from the worker into a shard. Plain data (crosses JS RPC). */
export interface ShardCall {
  path: string;
  /** Decoded arguments (bigints and bytes native), not yet validated. */
  args: unknown;
  identity: Identity | null;
  /** Set for cron jobs and queue consumers: the service name (`cron:<job>`). */
  service: string | null;
  transport: Exclude<Transport, "internal">;
  requestId: string;
  shardKey: string;
  /** The worker records this call: send back the handler's console lines and any stack. */
  record?: boolean;
  /** A client's id for this mutation (`x-svc-mutation-id`), acknowledged on its subscription sockets. */
  mutationId?: string;
  /** Where the worker records calls (its `logs` option): jobs this call schedules are recorded there. */
  plan?: RecordingPlan;
  /**
   * The app's own server code calls (HTTP actions, cron jobs, queue
   * consumers): internal procedures answer too, not only public ones. Set by
   * the worker alone, never from a request: only the worker holds a stub.
   */
  fromServer?: boolean;
  /**
   * Milliseconds the shard gives the call before answering `UNAVAILABLE`
   * (the worker's `procedureTimeoutMs`). The shard keeps it (shard/deadlines.ts):
   * one timer per shard, not one per call in the worker.
   */
  timeoutMs?: number;
  /**
   * `"json"`: the worker answers the call as JSON (REST, RPC), so the shard
   * answers its value already encoded ({@link ShardResult} `json`): one
   * string crosses RPC instead of the value's object graph, which the worker
   * would only have encoded again (a REST list of 100 rows: 0.89× the
   * worker's CPU per call of the value crossing RPC, measured 2026-12-05).
   * Absent: the value itself (server calls that use it).
   */
  answerAs?: "json";
  /**
   * The REST rate-limit gate to decide before the procedure runs, when its
   * shard decides it (`createRestRateLimit`'s `decideIn`). The answer's
   * {@link ShardResult} `gate` says what came of it.
   */
  gate?: ShardGateCall;
}

/**
 * What a shard answers for a query, mutation or action (with what it
 * observed, when asked): the value, or for a call answered as JSON
 * ({@link ShardCall.answerAs}) its text in svc's encoding instead, absent
 * when the handler returned `undefined`.
 */
export type ShardResult = (
  | { ok: true; value?: unknown; json?: string }
  | { ok: false; error: SerializedError }
) & {
  observed?: ShardObservation;
  /** What came of the call's {@link ShardCall.gate}, when it carried one. */
  gate?: ShardGateAnswer;
};

/** What a shard answers for a stream: NDJSON bytes, or an error before the first item. */
export type ShardStreamResult = (
  | { ok: true; body: ReadableStream<Uint8Array> }
  | { ok: false; error: SerializedError }
) & { observed?: ShardObservation };

/** The methods a shard Durable Object exposes to the worker over JS RPC. */
export interface ShardEndpoint {
  /**
   * A query, mutation or action: a client's reaches public procedures only;
   * one {@link ShardCall.fromServer} (the app's own server code) internal ones too.
   */
  call(call: ShardCall): Promise<ShardResult>;
  openStream(call: ShardCall): Promise<ShardStreamResult>;
  /**
   * The data studio (`/_svc/admin/data/`): tables, browsing, operator edits
   * and runs as a chosen identity. Only the worker holds a stub, and it calls
   * this after the admin gate.
   */
  admin(request: ShardAdminRequest): Promise<ShardAdminResult>;
  /** Accepts a subscription socket the worker authorized (`/_svc/ws`). */
  fetch(request: Request): Promise<Response>;
}
