import { type AdminClient, pathOf, type QueryParams } from "./client.ts";
import type {
  CallRecord,
  CronJobView,
  ErrorGroup,
  MetricsAnswer,
  MetricsWindow,
  QueueView,
  RecordPage,
} from "./log-types.ts";

/** Filters of the record list and the tail, as the API names them; `""` means any. */
export interface LogQuery {
  function?: string;
  entry?: string;
  status?: string;
  user?: string;
  shard?: string;
  since?: string;
  until?: string;
  q?: string;
}

/**
 * Reads server-sent events from a streamed answer and hands each
 * `event: record` to `onRecord`, until the stream ends or `signal` aborts.
 * (An `EventSource` cannot send the admin token; `fetch` can.)
 */
export async function readRecordEvents(
  body: ReadableStream<Uint8Array>,
  onRecord: (record: CallRecord) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = event.split("\n");
      if (lines.includes("event: record")) {
        const data = lines.find((line) => line.startsWith("data: "));
        if (data !== undefined) onRecord(JSON.parse(data.slice(6)) as CallRecord);
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

/**
 * The logs admin routes (`/_svc/admin/logs*`), one typed function each, so
 * the Logs and Functions screens never spell a URL.
 */
export function logsApi(client: AdminClient) {
  const get = <T>(path: string, query?: QueryParams, signal?: AbortSignal) =>
    client.request<T>("GET", path, { query, signal });
  return {
    list: (query: LogQuery & { cursor?: string; limit?: number }, signal?: AbortSignal) =>
      get<RecordPage>("logs", { ...query }, signal),
    record: (requestId: string, signal?: AbortSignal) =>
      get<{ record: CallRecord }>(`logs/${pathOf(requestId)}`, undefined, signal),
    groups: (since: string, signal?: AbortSignal) =>
      get<{ groups: ErrorGroup[] }>("logs/groups", { since }, signal),
    metrics: (window: MetricsWindow, signal?: AbortSignal) =>
      get<MetricsAnswer>("logs/metrics", { window }, signal),
    cron: (since: string, signal?: AbortSignal) =>
      get<{ since: string; jobs: CronJobView[] }>("logs/cron", { since }, signal),
    queues: (since: string, signal?: AbortSignal) =>
      get<{ since: string; queues: QueueView[] }>("logs/queues", { since }, signal),
    /** Follows new records matching `query` until `signal` aborts. */
    async tail(query: LogQuery, onRecord: (record: CallRecord) => void, signal: AbortSignal) {
      const response = await client.response("GET", "logs/tail", { query: { ...query }, signal });
      if (response.body === null) return;
      await readRecordEvents(response.body, onRecord);
    },
  };
}

/** The logs API the screens share. */
export type LogsApi = ReturnType<typeof logsApi>;
