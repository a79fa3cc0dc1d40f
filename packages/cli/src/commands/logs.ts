import { parseArgs } from "node:util";
import { logsAdminRoutes } from "@svc/server/routes/contract";
import { AdminClient, adminConnection } from "../admin-client.ts";
import { SvcCliError } from "../errors.ts";
import { formatRecordLine, type RecordLine } from "./log-lines.ts";

/** `svc logs`'s own usage line. */
export const LOGS_USAGE = `  svc logs [--follow] [--function <f>] [--status <5xx|failed|code>] [--since <1h>]
           [--entry <e>] [--user <id>] [--shard <key>] [--text <t>] [--limit <n>] [--verbose] [--json]
                                        the app's call records, oldest first (--follow: then new ones)`;

const FILTERS = ["function", "status", "since", "entry", "user", "shard"] as const;

type Write = (text: string) => void;

/**
 * Reads server-sent `record` events until the stream ends; answers the last
 * event id. `onOpen` runs once the first bytes arrived: the tail has fixed
 * where it starts, so every call from then on will be printed.
 */
async function followStream(
  body: ReadableStream<Uint8Array>,
  onRecord: (record: RecordLine) => void,
  onOpen: () => void,
): Promise<string | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let lastId: string | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return lastId;
    if (buffer === "" && lastId === null) onOpen();
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const lines = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const id = lines.find((line) => line.startsWith("id: "));
      if (id !== undefined) lastId = id.slice(4);
      const data = lines.find((line) => line.startsWith("data: "));
      if (lines.includes("event: record") && data !== undefined) {
        onRecord(JSON.parse(data.slice(6)) as RecordLine);
      }
    }
  }
}

/**
 * `svc logs`: the newest call records of a running app (oldest of them
 * first, like a log file), filtered as the admin API filters; `--follow`
 * then keeps printing new ones as they are written (the logs tail, resumed
 * across reconnects) until interrupted. `--json` prints one record per line
 * as JSON, for `jq`.
 *
 * @example
 * ```sh
 * svc logs --follow --function messages:send --status 5xx --since 1h
 * ```
 */
export async function logsCommand(
  args: readonly string[],
  write: Write = (text) => process.stdout.write(text),
  note: Write = (text) => process.stderr.write(text),
  env: Record<string, string | undefined> = process.env,
  signal?: AbortSignal,
): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      follow: { type: "boolean", short: "f" },
      function: { type: "string" },
      status: { type: "string" },
      since: { type: "string" },
      entry: { type: "string" },
      user: { type: "string" },
      shard: { type: "string" },
      text: { type: "string" },
      limit: { type: "string", default: "50" },
      verbose: { type: "boolean", short: "v" },
      json: { type: "boolean" },
      app: { type: "string" },
      url: { type: "string" },
      "admin-token": { type: "string" },
    },
    allowPositionals: false,
  });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 0 || limit > 200) {
    throw new SvcCliError("BAD_USAGE", "svc logs: --limit must be an integer from 0 to 200");
  }
  const connection = adminConnection(
    { url: values.url, adminToken: values["admin-token"], appDir: values.app },
    env,
  );
  const client = new AdminClient(connection);
  const filters: Record<string, string | undefined> = { q: values.text };
  for (const name of FILTERS) filters[name] = values[name];
  const print = (record: RecordLine) =>
    write(`${values.json ? JSON.stringify(record) : formatRecordLine(record, values.verbose)}\n`);
  if (limit > 0) {
    const page = await client.answer(logsAdminRoutes, "listLogs", {
      query: { ...filters, limit },
    });
    for (const record of [...page.records].reverse()) print(record);
  }
  if (!values.follow) return 0;
  const { since: _since, ...tailFilters } = filters;
  let lastId: string | null = null;
  while (signal?.aborted !== true) {
    // The tail resumes from the last event it printed (Last-Event-ID), so a reconnect misses nothing.
    const headers: Record<string, string> = { authorization: `Bearer ${connection.token}` };
    if (lastId !== null) headers["last-event-id"] = lastId;
    const url = client.urlOf(logsAdminRoutes, "tailLogs", { query: tailFilters });
    let response: Response;
    try {
      response = await fetch(url, { headers, signal });
    } catch (error) {
      if (signal?.aborted) break;
      throw new SvcCliError(
        "ADMIN_UNREACHABLE",
        `svc: could not reach ${connection.url} (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (!response.ok || response.body === null) {
      throw new SvcCliError(
        "ADMIN_REQUEST_FAILED",
        `svc: GET ${new URL(url).pathname} failed: ${response.status} ${(await response.text()).slice(0, 300)}`,
      );
    }
    try {
      const first = lastId === null;
      const opened = () => {
        if (first) note("svc: following new calls (Ctrl+C to stop)\n");
      };
      lastId = (await followStream(response.body, print, opened)) ?? lastId;
    } catch (error) {
      if (signal?.aborted) break;
      throw error;
    }
  }
  return 0;
}
