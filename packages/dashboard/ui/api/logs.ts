import {
  createRouteClient,
  type logsAdminRoutes,
  type RouteQuery,
} from "@svc/server/routes/contract";
import type { AdminClient } from "./client.ts";
import type { CallRecord } from "./log-types.ts";
import { LOGS_ADMIN_MANIFEST } from "./routes.generated.ts";

/**
 * Filters of the record list and the tail, as the API names them; absent
 * means any. The tail route's query, from its declaration.
 */
export type LogQuery = RouteQuery<(typeof logsAdminRoutes.routes)["tailLogs"]>;

/**
 * Reads server-sent events from a streamed answer and hands each
 * `event: record` to `onRecord`, until the stream ends. `onOpen` runs once,
 * at the first bytes: the server sends them once it has fixed where the
 * tail starts, so every call from then on will be shown. (An `EventSource`
 * cannot send the admin token; `fetch` can.)
 */
export async function readRecordEvents(
  body: ReadableStream<Uint8Array>,
  onRecord: (record: CallRecord) => void,
  onOpen: () => void = () => {},
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let opened = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (!opened) {
      opened = true;
      onOpen();
    }
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

/** The query naming whether the admin API's own calls count (the server leaves them out by default). */
function adminQuery(include: boolean): { admin?: "include" } {
  return include ? { admin: "include" } : {};
}

/**
 * The logs admin routes (`/_svc/admin/logs*`), derived from their
 * declarations (`logsAdminRoutes`) through the generated manifest like every
 * other admin route, plus the live tail read as a stream of records.
 */
export function logsApi(client: AdminClient) {
  const routes = createRouteClient(LOGS_ADMIN_MANIFEST, client.send, { readJson: client.readJson });
  return {
    list: (query: LogQuery & { cursor?: string; limit?: number }, signal?: AbortSignal) =>
      routes.listLogs({ query, signal }),
    record: (requestId: string, signal?: AbortSignal) =>
      routes.getLog({ params: { requestId }, signal }),
    /** Error groups since `since`; the admin API's own only with `includeAdmin`. */
    groups: (since: string, includeAdmin: boolean, signal?: AbortSignal) =>
      routes.logGroups({ query: { since, ...adminQuery(includeAdmin) }, signal }),
    /** Metrics per function over `window`; the admin API's own only with `includeAdmin`. */
    metrics: (window: "1h" | "24h" | "7d", includeAdmin: boolean, signal?: AbortSignal) =>
      routes.logMetrics({ query: { window, ...adminQuery(includeAdmin) }, signal }),
    cron: (since: string, signal?: AbortSignal) => routes.cronRuns({ query: { since }, signal }),
    /** Runs a declared cron job now (audited as `cron.run`). */
    runCron: (job: string) => routes.runCron({ params: { job } }),
    queues: (since: string, signal?: AbortSignal) => routes.queueRuns({ query: { since }, signal }),
    /** Follows new records matching `query` until `signal` aborts; `onOpen` once it is following. */
    async tail(
      query: LogQuery,
      onRecord: (record: CallRecord) => void,
      signal: AbortSignal,
      onOpen?: () => void,
    ) {
      const response = await routes.tailLogs({ query, signal });
      if (response.body === null) return;
      await readRecordEvents(response.body, onRecord, onOpen);
    },
  };
}

/** The logs API the screens share. */
export type LogsApi = ReturnType<typeof logsApi>;
