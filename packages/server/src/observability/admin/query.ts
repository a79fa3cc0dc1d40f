import type { ValidationIssue } from "../../errors/svc-error.ts";
import { validationFailed } from "../../errors/validation-failed.ts";
import { decodeOpaqueJson, encodeOpaqueJson } from "../../values/opaque-json.ts";
import { ENTRY_POINTS, type EntryPoint } from "../record.ts";
import type { RecordFilters, StatusFilter } from "../store/endpoint.ts";
import type { PageCursor } from "./store-reader.ts";

/** Records per page when `limit` is not given, and the most one page may hold. */
export const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;
const MAX_TEXT = 200;

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

/** What `GET /_svc/admin/logs` and the tail accept, parsed. */
export interface LogQuery {
  filters: RecordFilters;
  cursor: PageCursor | null;
  limit: number;
}

const PARAMS = [
  "function",
  "entry",
  "status",
  "user",
  "shard",
  "since",
  "until",
  "q",
  "cursor",
  "limit",
] as const;

/**
 * Parses the record filters of the logs routes from a query string. Every
 * parameter is allow-listed and checked; anything else is one
 * `VALIDATION_FAILED` naming each bad parameter.
 *
 * @example parseLogQuery(new URLSearchParams("function=messages:list&status=5xx&since=1h"), Date.now())
 */
export function parseLogQuery(params: URLSearchParams, now: number): LogQuery {
  const issues: ValidationIssue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `query.${name}`, message });
  const filters: RecordFilters = {};
  let cursor: PageCursor | null = null;
  let limit = DEFAULT_PAGE;
  for (const name of new Set(params.keys())) {
    if (!(PARAMS as readonly string[]).includes(name)) bad(name, "is not a filter of this route");
    else if (params.getAll(name).length > 1) bad(name, "may be given once");
  }
  const text = (name: string): string | undefined => {
    const value = params.get(name);
    if (value === null || value === "") return undefined;
    if (value.length > MAX_TEXT) {
      bad(name, `must be at most ${MAX_TEXT} characters`);
      return undefined;
    }
    return value;
  };
  const route = text("function");
  if (route !== undefined) filters.route = route;
  const entry = text("entry");
  if (entry !== undefined) {
    if ((ENTRY_POINTS as readonly string[]).includes(entry)) filters.entry = entry as EntryPoint;
    else bad("entry", `must be one of ${ENTRY_POINTS.join(", ")}`);
  }
  const status = text("status");
  if (status !== undefined) {
    const parsed = parseStatus(status);
    if (parsed === undefined)
      bad("status", "must be 2xx–5xx, failed, an HTTP status or an error code");
    else filters.status = parsed;
  }
  const user = text("user");
  if (user !== undefined) filters.user = user;
  const shard = text("shard");
  if (shard !== undefined) filters.shard = shard;
  for (const name of ["since", "until"] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const bound = parseTimeBound(value, now);
    if (bound === undefined) bad(name, "must be like 15m, 1h, 7d, an ISO-8601 time or epoch ms");
    else filters[name] = bound;
  }
  const q = text("q");
  if (q !== undefined) filters.q = q;
  const rawCursor = text("cursor");
  if (rawCursor !== undefined) {
    cursor = decodeCursor(rawCursor) ?? null;
    if (cursor === null) bad("cursor", "is not a cursor this route answered");
  }
  const rawLimit = text("limit");
  if (rawLimit !== undefined) {
    const parsed = Number(rawLimit);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > MAX_PAGE)
      bad("limit", `must be an integer from 1 to ${MAX_PAGE}`);
    else limit = parsed;
  }
  if (issues.length > 0) throw validationFailed(issues);
  return { filters, cursor, limit };
}
