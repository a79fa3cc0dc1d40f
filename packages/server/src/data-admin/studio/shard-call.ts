import { deserializeError, SvcError } from "../../errors/svc-error.ts";
import type { ShardEndpoint } from "../../shard/call.ts";
import type { ShardAdminAnswers, ShardAdminRequest } from "../../studio/shard-protocol.ts";
import { withTimeout } from "../../worker/invoke.ts";

type Op = ShardAdminRequest["op"];

/** A studio request without what {@link callStudio} fills in. */
export type StudioRequest<K extends Op> = Omit<
  Extract<ShardAdminRequest, { op: K }>,
  "op" | "requestId" | "shardKey" | "operator"
>;

/**
 * Sends one data-studio request to a shard and answers its value. Every
 * not-found the shard reports (table, document, procedure) becomes the one
 * generic 404 of the admin surface, so no answer tells which part was missing.
 *
 * @example const { tables } = await callStudio(stub, { key: "room-1", operator: "alice", timeoutMs }, "tables", {});
 */
export async function callStudio<K extends Op>(
  stub: ShardEndpoint,
  call: { key: string; operator: string; timeoutMs: number },
  op: K,
  request: StudioRequest<K>,
): Promise<ShardAdminAnswers[K]> {
  const result = await withTimeout(
    stub.admin({
      ...request,
      op,
      operator: call.operator,
      requestId: crypto.randomUUID(),
      shardKey: call.key,
    } as ShardAdminRequest),
    call.timeoutMs,
  );
  if (result.ok) return result.value as ShardAdminAnswers[K];
  if (result.error.code === "NOT_FOUND") throw new SvcError("NOT_FOUND", "Not found.");
  throw deserializeError(result.error);
}
