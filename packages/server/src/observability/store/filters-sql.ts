import type { PartitionCursor, RecordFilters } from "./endpoint.ts";

/** A `WHERE` clause (without the keyword; `1` when empty) and its bindings. */
export interface Where {
  clause: string;
  bindings: (string | number)[];
}

/**
 * Turns record filters (and a page cursor) into SQL over `_svc_calls`. Each
 * filter matches an indexed column, so SQLite walks one index newest first
 * and stops at the page size (a 2xx filter walks the time index: most rows
 * match); `q` looks its rows up in the trigram index.
 */
export function whereOf(filters: RecordFilters, cursor: PartitionCursor | null = null): Where {
  const parts: string[] = [];
  const bindings: (string | number)[] = [];
  const add = (part: string, ...values: (string | number)[]) => {
    parts.push(part);
    bindings.push(...values);
  };
  // The class index holds answers other than 2xx only; the repeated term lets SQLite use it.
  const addClass = (value: number) =>
    value === 2 ? add("status_class = 2") : add("status_class = ? AND status_class <> 2", value);
  if (filters.route !== undefined) add("route = ?", filters.route);
  if (filters.entry !== undefined) add("entry = ?", filters.entry);
  else if (filters.excludeAdmin === true) parts.push("entry <> 'admin'");
  if (filters.user !== undefined) add("caller_id = ?", filters.user);
  if (filters.shard !== undefined) add("shard_key = ?", filters.shard);
  if (filters.since !== undefined) add("time >= ?", filters.since);
  if (filters.until !== undefined) add("time < ?", filters.until);
  const status = filters.status;
  if (status?.kind === "class") addClass(status.value);
  if (status?.kind === "status") {
    addClass(Math.floor(status.value / 100));
    add("status = ?", status.value);
  }
  if (status?.kind === "code") add("code = ?", status.value);
  if (status?.kind === "failed") parts.push("code IS NOT NULL");
  if (filters.q !== undefined && filters.q !== "") {
    // One FTS5 phrase over the trigram index: the text as a substring, in any case.
    add(
      "seq IN (SELECT rowid FROM _svc_calls_text WHERE _svc_calls_text MATCH ?)",
      `"${filters.q.replaceAll('"', '""')}"`,
    );
  }
  if (cursor !== null) {
    if (cursor.seq !== undefined) add("(time, seq) < (?, ?)", cursor.time, cursor.seq);
    else add(cursor.inclusive === true ? "time <= ?" : "time < ?", cursor.time);
  }
  return { clause: parts.length === 0 ? "1" : parts.join(" AND "), bindings };
}
