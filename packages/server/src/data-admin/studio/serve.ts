import { INTERNAL_MESSAGE } from "../../errors/normalize.ts";
import { SvcError } from "../../errors/svc-error.ts";
import type { DataAuditAction, DataAuditSink } from "../../model/data-audit.ts";
import { endpointStub } from "../../model/endpoint-stub.ts";
import { checkShardKey } from "../../model/shard-key.ts";
import type { FunctionRegistry } from "../../procedures/procedure.ts";
import { findShard } from "../../registry/reader.ts";
import { implement } from "../../routes/implement.ts";
import { serveRoutes } from "../../routes/serve.ts";
import type { ShardEndpoint } from "../../shard/call.ts";
import { unknownShard } from "../not-found.ts";
import { studioGroup } from "./contract.ts";
import { type StudioAudit, type StudioContext, studioHandlers } from "./handlers.ts";
import type { IdentityLookup } from "./viewer.ts";

/** What `createWorker` gives the data studio besides the shard namespace and the audit sink. */
export interface StudioDeps {
  functions: FunctionRegistry;
  /** `authAdmin.lookupIdentity`, when the app has one. */
  lookupIdentity: IdentityLookup | undefined;
  /** How long a call may take in its shard (`procedureTimeoutMs`). */
  timeoutMs: number;
}

/**
 * How long this isolate trusts a registry answer that a shard exists. An
 * operator browsing a table sends one request after another to the same
 * shard; each would otherwise pay a round trip to the registry before the
 * shard's own. A shard deleted meanwhile stays reachable this long here
 * (it then reads as empty). Unknown keys are never remembered.
 */
const KNOWN_SHARD_TTL_MS = 5_000;
/** Most shards remembered per isolate; the oldest go first. */
const KNOWN_SHARDS_KEPT = 1_000;
const knownShards = new WeakMap<DurableObjectNamespace, Map<string, number>>();

async function isKnown(namespace: DurableObjectNamespace, key: string): Promise<boolean> {
  let known = knownShards.get(namespace);
  if (known === undefined) {
    known = new Map();
    knownShards.set(namespace, known);
  }
  const until = known.get(key);
  if (until !== undefined && until > Date.now()) return true;
  known.delete(key);
  if ((await findShard(namespace, key)) === null) return false;
  known.set(key, Date.now() + KNOWN_SHARD_TTL_MS);
  if (known.size > KNOWN_SHARDS_KEPT) known.delete(known.keys().next().value as string);
  return true;
}

/** Largest body of a studio route: a document may be as large as a procedure's arguments. */
const MAX_STUDIO_BODY_BYTES = 1024 * 1024;

/** One request's context: the studio's, plus where its audit record goes. */
interface StudioRequestContext extends StudioContext {
  audit: DataAuditSink;
}

/** An open audit record: the action and shard, and what the handler says happened. */
interface OpenRecord extends StudioAudit {
  action: DataAuditAction;
  shard: string;
  ctx: StudioRequestContext;
}

const server = serveRoutes(
  implement(studioGroup).context<StudioRequestContext, OpenRecord>().handlers(studioHandlers),
  {
    maxBodyBytes: MAX_STUDIO_BODY_BYTES,
    audit: {
      open: ({ action, params, ctx }) => ({
        action: action as DataAuditAction,
        shard: params.key ?? "",
        detail: null,
        ctx,
      }),
      async close(record, error) {
        const safe = error instanceof SvcError && error.code !== "INTERNAL";
        const message = safe ? error.message : INTERNAL_MESSAGE;
        await record.ctx.audit({
          operator: record.ctx.operator,
          action: record.action,
          targetType: "shard",
          targetId: record.shard,
          outcome: error === undefined ? "ok" : "error",
          // A detail set before the failure (the SQL console's statement) is kept beside the error.
          detail:
            error === undefined
              ? record.detail
              : record.detail === null
                ? message
                : JSON.stringify({ ...(JSON.parse(record.detail) as object), error: message }),
        });
      },
    },
  },
);

/**
 * Answers a data-studio route under `/_svc/admin/data/` (the admin gate has
 * already admitted it): the shard of the path must be in the registry,
 * else a 404 naming the shard; writes and runs are audited with the operator, the
 * shard, and what changed, refusals included.
 *
 * @example await serveStudio(request, "shards/room-1/tables", { namespace, operator: "alice", audit, studio })
 */
export function serveStudio(
  request: Request,
  path: string,
  deps: {
    namespace: DurableObjectNamespace;
    operator: string;
    audit: DataAuditSink;
    studio: StudioDeps;
  },
): Promise<Response> {
  const { namespace, studio } = deps;
  return server.handle(request, {
    path,
    ctx: {
      operator: deps.operator,
      audit: deps.audit,
      functions: studio.functions,
      lookupIdentity: studio.lookupIdentity,
      timeoutMs: studio.timeoutMs,
      async knownShard(key) {
        if (!(await isKnown(namespace, checkShardKey(key)))) throw unknownShard(key);
        return endpointStub<ShardEndpoint>(namespace, key);
      },
    },
  });
}
