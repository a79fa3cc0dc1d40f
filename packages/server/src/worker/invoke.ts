import { deserializeError, SvcError } from "../errors/svc-error.ts";
import {
  countAfterRun,
  decideInWorker,
  type ShardGateCall,
  shardGateHeaders,
} from "../limits/shard-gate.ts";
import type { Identity } from "../model/identity.ts";
import { callScopeOf, noteObservation } from "../observability/call-scope.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import type { ShardCall, ShardEndpoint } from "../shard/call.ts";
import { NDJSON_CONTENT_TYPE } from "../shard/stream-encoding.ts";

/** Resolves the caller of a request; `null` for anonymous. */
export type IdentityResolver<Env = unknown> = (
  request: Request,
  env: Env,
) => Promise<Identity | null> | Identity | null;

/** A call ready to go to its shard. */
export interface Invocation {
  path: string;
  procedure: AnyProcedure;
  args: unknown;
  identity: Identity | null;
  /** The request the call answers: its record's scope is found through it. */
  request: Request;
  transport: "rpc" | "rest";
  shardKey: string;
  stub: ShardEndpoint;
  /** Milliseconds the shard gives the call before answering `UNAVAILABLE` (shard/deadlines.ts). */
  timeoutMs: number;
  /** A client's mutation id (`x-svc-mutation-id`), acknowledged on its subscription sockets. */
  mutationId?: string;
  /** Where calls are recorded (`runtime.recording`): the shard records jobs the call schedules there. */
  plan?: RecordingPlan | null;
}

/**
 * Waits for `work` at most `timeoutMs`, for shard methods that keep no
 * deadline themselves (the data studio's `admin`; procedure calls carry
 * theirs into the shard, shard/deadlines.ts, and need no timer here). The
 * shard may still finish the work; the caller is told it did not finish in
 * time. One promise and one timer per call, settled by whichever comes first.
 *
 * @example
 * ```ts
 * const result = await withTimeout(stub.admin(request), 30_000);
 * ```
 */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(refuseLate, timeoutMs, reject, timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The timer's end: the call is answered `UNAVAILABLE` (the error is made only now, not per call). */
function refuseLate(reject: (error: SvcError) => void, timeoutMs: number): void {
  reject(new SvcError("UNAVAILABLE", `The procedure did not finish within ${timeoutMs} ms.`));
}

function toShardCall(invocation: Invocation): ShardCall {
  const scope = callScopeOf(invocation.request);
  const call: ShardCall = {
    path: invocation.path,
    args: invocation.args,
    identity: invocation.identity,
    service: null,
    transport: invocation.transport,
    requestId: scope?.requestId ?? crypto.randomUUID(),
    shardKey: invocation.shardKey,
    record: scope !== undefined,
    timeoutMs: invocation.timeoutMs,
  };
  // Set, not spread in: a spread of a conditional object was two more objects on every call.
  // Only what can schedule jobs needs the plan (they are recorded there): not a query's call,
  // whose every call would otherwise carry it across RPC for nothing.
  if (scope !== undefined && invocation.plan && invocation.procedure.kind !== "query")
    call.plan = invocation.plan;
  if (invocation.mutationId !== undefined) call.mutationId = invocation.mutationId;
  return call;
}

/**
 * Sends a query, mutation or action to its shard and answers `then` of its
 * value as JSON text in svc's encoding (`undefined` when the handler
 * returned nothing), run in the same step: a refusal comes back as the same
 * `SvcError` the handler threw. The shard encodes the value where it is
 * (`answerAs: "json"`), so one string crosses RPC, not the value's objects.
 * RPC and REST both call this, so they share one dispatch, and a caller that
 * maps the text (its answer) adds no promise of its own.
 *
 * @example return invokeJson(invocation, (json) => jsonTextResponse(json ?? "null"));
 */
export function invokeJson<T>(
  invocation: Invocation,
  then: (json: string | undefined) => T,
): Promise<T> {
  const { request } = invocation;
  const call = toShardCall(invocation);
  call.answerAs = "json";
  // `then`, not an `async` function: one promise and one resumed frame less on every call.
  return invocation.stub.call(call).then((result) => {
    noteObservation(request, result.observed);
    if (!result.ok) throw deserializeError(result.error);
    return then(result.json);
  });
}

/**
 * {@link invokeJson} for a REST call whose rate-limit gate its shard decides
 * (`gate`, from admission): `then` gets the gate's `RateLimit-*` headers
 * too. A refusal is the same 429 the worker's own gate answers, and the key
 * is refused in the worker until its `Retry-After` is over. Should the
 * shard's isolate not know the gate (made after module load), the worker
 * decides it and calls again; a shard of an earlier svc, which ran the call
 * without deciding it, has its unit counted afterwards.
 *
 * @example return invokeGatedJson(invocation, door.shardGate, (json, headers) => restAnswer(json, { limitHeaders: headers }));
 */
export function invokeGatedJson<T>(
  invocation: Invocation,
  gate: ShardGateCall,
  then: (json: string | undefined, gateHeaders: Record<string, string>) => T,
): Promise<T> {
  const { request } = invocation;
  const call = toShardCall(invocation);
  call.answerAs = "json";
  call.gate = gate;
  const sentAt = Date.now();
  return invocation.stub.call(call).then((result): T | Promise<T> => {
    noteObservation(request, result.observed);
    const answer = result.gate;
    // A shard of an earlier svc ran the call, admitted or not, and failed or not: it counts.
    if (answer === undefined)
      return countAfterRun(gate).then((headers) => {
        if (!result.ok) throw deserializeError(result.error);
        return then(result.json, headers);
      });
    if (answer.unknown)
      return Promise.resolve(decideInWorker(gate)).then((headers) =>
        invokeJson(invocation, (json) => then(json, headers)),
      );
    const headers = shardGateHeaders(gate, answer, sentAt);
    if (!result.ok) throw deserializeError(result.error);
    return then(result.json, headers);
  });
}

/** Opens a stream procedure in its shard and answers with its NDJSON body. */
export async function invokeStream(invocation: Invocation): Promise<Response> {
  const result = await invocation.stub.openStream(toShardCall(invocation));
  noteObservation(invocation.request, result.observed);
  if (!result.ok) throw deserializeError(result.error);
  return new Response(result.body, {
    headers: {
      "content-type": NDJSON_CONTENT_TYPE,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
