import type { ValidationIssue } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { EntryPoint } from "../observability/record.ts";
import type { RecordFilters, StatusFilter } from "../observability/store/endpoint.ts";
import { decodeOpaqueJson, encodeOpaqueJson } from "../values/opaque-json.ts";
import { DEFAULT_PAGE } from "./contract.ts";
import type { PageCursor } from "./store-reader.ts";

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A time bound: `15m`, `1h`, `7d` (that long before now), an ISO-8601 time,
 * or epoch milliseconds. `undefined` when the text is none of these.
 *
 * @example parseTimeBound("1h", Date.parse("2026-01-01T01:00:00Z")) // Date.parse("2026-01-01T00:00:00Z")
 */
export function parseTimeBound(text: string, now: number): number | undefined {
  const relative = /^(\d{1,6})([smhd])$/.exec(text);
  if (relative) return now - Number(relative[1]) * UNITS[relative[2]!]!;
  if (/^\d{10,16}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * A status filter: `2xx`…`5xx`, `failed` (any error code), an HTTP status
 * (`404`) or an error code (`FORBIDDEN`, `HTTP_502`).
 */
export function parseStatus(text: string): StatusFilter | undefined {
  const klass = /^([2-5])xx$/i.exec(text);
  if (klass) return { kind: "class", value: Number(klass[1]) as 2 | 3 | 4 | 5 };
  if (text === "failed" || text === "error") return { kind: "failed" };
  if (/^[1-5]\d\d$/.test(text)) return { kind: "status", value: Number(text) };
  if (/^[A-Z][A-Z0-9_]{1,39}$/.test(text)) return { kind: "code", value: text };
  return undefined;
}

/** Encodes where a page ended, for the next request's `cursor`. */
export function encodeCursor(cursor: PageCursor): string {
  return encodeOpaqueJson([cursor.time, cursor.partition, cursor.seq]);
}

function decodeCursor(text: string): PageCursor | undefined {
  const value = decodeOpaqueJson(text);
  if (!Array.isArray(value) || value.length !== 3 || !value.every(Number.isSafeInteger)) {
    return undefined;
  }
  const [time, partition, seq] = value as number[];
  return { time: time!, partition: partition!, seq: seq! };
}

/** The query of the list and the tail as the route declaration read it (strings, checked lengths). */
export interface LogQueryInput {
  admin?: "include" | "exclude";
  function?: string;
  entry?: EntryPoint;
  status?: string;
  user?: string;
  shard?: string;
  since?: string;
  until?: string;
  q?: string;
  cursor?: string;
  limit?: number;
}

/** What `GET /_svc/admin/logs` and the tail accept, parsed. */
export interface LogQuery {
  filters: RecordFilters;
  cursor: PageCursor | null;
  limit: number;
}

/**
 * Turns the declared query of the logs routes into record filters: status
 * forms, time bounds and the cursor are checked here (the declaration has
 * already refused unknown parameters and over-long values); every bad one is
 * named in one `VALIDATION_FAILED`.
 *
 * @example parseLogQuery({ function: "messages:list", status: "5xx", since: "1h" }, Date.now())
 */
export function parseLogQuery(input: LogQueryInput, now: number): LogQuery {
  const issues: ValidationIssue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `query.${name}`, message });
  const filters: RecordFilters = { excludeAdmin: input.admin !== "include" };
  if (input.function !== undefined) filters.route = input.function;
  if (input.entry !== undefined) filters.entry = input.entry;
  if (input.user !== undefined) filters.user = input.user;
  if (input.shard !== undefined) filters.shard = input.shard;
  if (input.q !== undefined) {
    if (input.q.length < 3) bad("q", "must be at least 3 characters");
    else filters.q = input.q;
  }
  if (input.status !== undefined) {
    const parsed = parseStatus(input.status);
    if (parsed === undefined)
      bad("status", "must be 2xx–5xx, failed, an HTTP status or an error code");
    else filters.status = parsed;
  }
  for (const name of ["since", "until"] as const) {
    const value = input[name];
    if (value === undefined) continue;
    const bound = parseTimeBound(value, now);
    if (bound === undefined) bad(name, "must be like 15m, 1h, 7d, an ISO-8601 time or epoch ms");
    else filters[name] = bound;
  }
  let cursor: PageCursor | null = null;
  if (input.cursor !== undefined) {
    cursor = decodeCursor(input.cursor) ?? null;
    if (cursor === null) bad("cursor", "is not a cursor this route answered");
  }
  if (issues.length > 0) throw validationFailed(issues);
  return { filters, cursor, limit: input.limit ?? DEFAULT_PAGE };
}
