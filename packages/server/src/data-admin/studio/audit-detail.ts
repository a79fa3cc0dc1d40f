import type { DocumentChange } from "../../studio/shard-protocol.ts";
import { stringifyJson } from "../../values/json-codec.ts";

/**
 * Largest encoded document an audit entry keeps whole; a bigger one is
 * recorded as its size only, so one large document cannot swell the trail.
 */
export const MAX_AUDITED_DOCUMENT_BYTES = 8 * 1024;

function kept(document: DocumentChange["before"]): unknown {
  if (document === null) return null;
  const text = stringifyJson(document);
  const bytes = new TextEncoder().encode(text).byteLength;
  return bytes <= MAX_AUDITED_DOCUMENT_BYTES ? JSON.parse(text) : { $omitted: `${bytes} bytes` };
}

/**
 * The audit detail of an operator's document edit: the shard, the table and
 * the document before and after, as one JSON text (svc's value encoding).
 *
 * @example changeDetail("room-1", change) // '{"shard":"room-1","table":"notes","before":null,"after":{…}}'
 */
export function changeDetail(shard: string, change: DocumentChange): string {
  return JSON.stringify({
    shard,
    table: change.table,
    before: kept(change.before),
    after: kept(change.after),
  });
}

/** Largest audit detail of a bulk edit; past it, documents are recorded as their sizes only. */
export const MAX_BULK_DETAIL_BYTES = 256 * 1024;

/**
 * The audit detail of a bulk delete or patch: the shard, the table, and each
 * document before and after, while they fit in {@link MAX_BULK_DETAIL_BYTES}
 * (then the rest are their ids with sizes), so a thousand documents stay one
 * bounded record.
 *
 * @example bulkDetail("room-1", "delete", changes) // '{"shard":"room-1","table":"notes","action":"delete","documents":[…]}'
 */
export function bulkDetail(
  shard: string,
  action: "delete" | "patch",
  changes: readonly DocumentChange[],
): string {
  let budget = MAX_BULK_DETAIL_BYTES;
  const documents = changes.map((change) => {
    const entry = { id: change.id, before: kept(change.before), after: kept(change.after) };
    const size = JSON.stringify(entry).length;
    if (size > budget) return { id: change.id, $omitted: `${size} bytes` };
    budget -= size;
    return entry;
  });
  return JSON.stringify({ shard, table: changes[0]?.table ?? null, action, documents });
}
