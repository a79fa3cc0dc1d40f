import { normalizeError } from "../errors/normalize.ts";
import { SvcError, serializeError } from "../errors/svc-error.ts";
import { decideInShard, type ShardGateAnswer, type ShardGateCall } from "../limits/shard-gate.ts";
import { TOO_MANY_REQUESTS } from "../limits/verdicts.ts";
import type { ShardResult } from "./call.ts";

/** The call's error when the shard's isolate knows no gate of its id (the worker never shows it). */
const UNKNOWN_GATE_ERROR = serializeError(
  new SvcError("INTERNAL", "svc: this shard knows no REST rate-limit gate of that id."),
);
/** The call's error when its gate refused it; the worker answers the 429 from the verdict. */
const REFUSED_ERROR = serializeError(new SvcError("RATE_LIMITED", TOO_MANY_REQUESTS));

/**
 * Runs a call whose REST gate the shard decides: the gate first (in this
 * object, with `owner` its `ctx`), then `run` when it admitted the call.
 * The answer carries what the gate decided (`gate`), so the worker sets the
 * `RateLimit-*` headers or answers the 429. A refused or unknown gate, a
 * store outage under `deny` and a limiter's configuration error answer
 * without running the procedure.
 *
 * @example
 * ```ts
 * return call.gate === undefined ? run() : runGated(call.gate, this.ctx, run);
 * ```
 */
export function runGated(
  gate: ShardGateCall,
  owner: object,
  run: () => Promise<ShardResult>,
): Promise<ShardResult> {
  return decideInShard(gate, owner).then(
    (answer) => {
      if (answer.unknown) return { ok: false, error: UNKNOWN_GATE_ERROR, gate: answer };
      if (answer.verdict?.ok === false) return { ok: false, error: REFUSED_ERROR, gate: answer };
      return run().then((result) => withGate(result, answer));
    },
    // Understood, not run: the worker answers the error (503 under `deny`, else 500).
    (error: unknown): ShardResult => ({
      ok: false,
      error: serializeError(normalizeError(error)),
      gate: {},
    }),
  );
}

/** The run's answer with what its gate decided. */
function withGate(result: ShardResult, answer: ShardGateAnswer): ShardResult {
  result.gate = answer;
  return result;
}
