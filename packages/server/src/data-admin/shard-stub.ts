import { deserializeError, SvcError } from "../errors/svc-error.ts";
import type { Outcome, ShardDataEndpoint } from "../shard/data-endpoint.ts";
import type { DataCall } from "./route.ts";

/** The data methods of the shard a call names by `:key`. */
export function shardOf(call: DataCall<unknown, unknown>): ShardDataEndpoint {
  return call.deps.namespace(call.env).getByName(call.key) as unknown as ShardDataEndpoint;
}

/** The value of a shard's answer, or its error thrown here (same code and message). */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw deserializeError(outcome.error);
  return outcome.value;
}

/**
 * The one not-found of the admin surface: an unknown shard answers exactly
 * what an unknown route does, so the answer tells nothing about which keys exist.
 */
export function notFound(): SvcError {
  return new SvcError("NOT_FOUND", "Not found.");
}
