import type { RecordFilters } from "../observability/store/endpoint.ts";
import { decodeOpaqueJson, encodeOpaqueJson } from "../values/opaque-json.ts";
import type { StoreReader } from "./store-reader.ts";

/** How often a tail asks the store for new records. */
export const TAIL_POLL_MS = 500;
/** A tail ends after this long; the client reconnects with `Last-Event-ID` and misses nothing. */
const TAIL_MAX_MS = 10 * 60_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;
const BATCH = 200;

function positionsFrom(header: string | null, partitions: number): number[] | null {
  if (header === null) return null;
  const value = decodeOpaqueJson(header);
  if (!Array.isArray(value) || value.length !== partitions || !value.every(Number.isSafeInteger)) {
    return null;
  }
  return value as number[];
}

/**
 * `GET /_svc/admin/logs/tail`: new records as server-sent events
 * (`event: record`, `data:` the record's JSON, `id:` the position to resume
 * from), matching the same filters as the list. It starts at the newest
 * record (or at `Last-Event-ID`), polls the store every
 * {@link TAIL_POLL_MS}, and ends after 10 minutes or as soon as its reader
 * goes away. Read it with `fetch`: an `EventSource` cannot send the admin
 * token.
 */
export function tailResponse(
  reader: StoreReader,
  partitions: number,
  filters: RecordFilters,
  lastEventId: string | null,
): Response {
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const send = (text: string) => writer.write(encoder.encode(text));
  // The reader going away (the client disconnected or cancelled) errors the
  // writable side: the tail stops at once instead of polling the store until
  // its next write fails, up to a keep-alive interval later.
  let left = false;
  const gone = writer.closed
    .catch(() => undefined)
    .then(() => {
      left = true;
    });
  const pause = () =>
    Promise.race([gone, new Promise((resolve) => setTimeout(resolve, TAIL_POLL_MS))]);
  void (async () => {
    const started = Date.now();
    let quietSince = Date.now();
    try {
      // With no Last-Event-ID, start after the newest record of each partition.
      let positions =
        positionsFrom(lastEventId, partitions) ??
        (await reader.tail(new Array<number>(partitions).fill(0), {}, 0)).positions;
      await send(": svc log tail\n\n");
      while (!left && Date.now() - started < TAIL_MAX_MS) {
        const { records, positions: next } = await reader.tail(positions, filters, BATCH);
        positions = next;
        const id = encodeOpaqueJson(positions);
        for (const record of records)
          await send(`event: record\nid: ${id}\ndata: ${JSON.stringify(record)}\n\n`);
        if (records.length > 0) quietSince = Date.now();
        else if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
          quietSince = Date.now();
          await send(`: keep-alive\nid: ${id}\n\n`);
        }
        if (records.length < BATCH) await pause();
      }
      if (!left) await writer.close();
    } catch {
      // The reader went away (or the store failed): end the stream; the client may reconnect.
      await writer.abort().catch(() => undefined);
    }
  })();
  return new Response(readable, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
