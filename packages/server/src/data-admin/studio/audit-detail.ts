import { stringifyJson } from "../../values/json-codec.ts";
import type { DocumentChange } from "./shard-protocol.ts";

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
