import { SvcError } from "../errors/svc-error.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { isIdOf } from "../values/ids.ts";
import { fromJsonValue, stringifyJson } from "../values/json-codec.ts";
import { type Issue, toValidationIssues } from "../values/validator.ts";
import type { SystemTableBackup } from "./system-tables.ts";

/**
 * svc's one backup format (DESIGN.md "Backups"): NDJSON, a header line, then
 * one line per document:
 *
 * ```
 * {"format":"svc-backup","formatVersion":1,"schemaVersion":null,"svcVersion":"0.1.0","shardKey":"room-1","createdAt":"2026-11-30T10:00:00.000Z","tables":{"messages":2}}
 * {"table":"messages","_id":"messages_…","_creationTime":1764496800000,"doc":{"body":"hi"}}
 * ```
 *
 * `doc` holds the document's own fields in the svc JSON encoding
 * (docs/values.md). The header counts the documents of every table, so a cut
 * file is refused on restore instead of restoring part of a shard.
 *
 * @see ../../../../docs/data-lifecycle.md
 */
export const BACKUP_FORMAT = "svc-backup";
/** Version of the line layout; a reader refuses versions it does not know. */
export const BACKUP_FORMAT_VERSION = 1;
/** Media type of exports and imports. */
export const BACKUP_CONTENT_TYPE = "application/x-ndjson";
/**
 * Longest line accepted on import (2 MiB): a document larger than this cannot
 * be stored in a shard anyway (SQLite values in Durable Objects are capped at
 * 2 MB).
 */
export const MAX_BACKUP_LINE_BYTES = 2 * 1024 * 1024;

/** The first line of a backup. */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: typeof BACKUP_FORMAT_VERSION;
  /** The schema version the shard had applied (`_svc_meta.schema_version`), or `null`. */
  schemaVersion: string | null;
  /** The `@svc/server` version that wrote the backup. */
  svcVersion: string;
  /** The shard the backup was taken from. */
  shardKey: string;
  /** ISO-8601 time the backup was taken (a consistent snapshot: writes waited). */
  createdAt: string;
  /** Documents per table in the backup. */
  tables: Record<string, number>;
  /** Stored files whose metadata follows the documents (storage/backup-lines.ts); absent: 0. */
  files?: number;
  /** Whether each file's bytes follow its metadata (a backup taken with `files`). */
  fileBytes?: boolean;
}

/** One document read back from a backup line, ready to store. */
export interface BackupDocument {
  table: string;
  id: string;
  creationTime: number;
  /** The document's own fields, encoded as svc stores them. */
  json: string;
}

/** The header as one NDJSON line. */
export function headerLine(header: BackupHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/** A stored row as one NDJSON line; `storedJson` is the row's `_doc` text, copied as is. */
export function documentLine(
  table: string,
  id: string,
  creationTime: number,
  storedJson: string,
): string {
  return `{"table":${JSON.stringify(table)},"_id":${JSON.stringify(id)},"_creationTime":${JSON.stringify(creationTime)},"doc":${storedJson}}\n`;
}

/** A malformed backup line: `BAD_REQUEST` naming the line, with `data.line`. */
export function lineError(line: number, message: string): SvcError<{ line: number }> {
  return new SvcError("BAD_REQUEST", `line ${line}: ${message}`, { data: { line } });
}

function parseObject(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw lineError(line, "not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw lineError(line, "not a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Reads line 1: refuses anything but an svc backup header of a known version. */
export function parseHeader(text: string): BackupHeader {
  const value = parseObject(text, 1);
  if (value.format !== BACKUP_FORMAT) {
    throw lineError(
      1,
      `not an svc backup (the first line must be a header with "format":"${BACKUP_FORMAT}")`,
    );
  }
  if (value.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw lineError(
      1,
      `backup format version ${JSON.stringify(value.formatVersion)} is not supported (this svc reads version ${BACKUP_FORMAT_VERSION})`,
    );
  }
  const tables = value.tables;
  if (
    tables === null ||
    typeof tables !== "object" ||
    Array.isArray(tables) ||
    !Object.values(tables).every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
  ) {
    throw lineError(1, "the header's tables must map each table to its document count");
  }
  if (typeof value.shardKey !== "string" || typeof value.createdAt !== "string") {
    throw lineError(1, "the header needs shardKey and createdAt");
  }
  return value as unknown as BackupHeader;
}

/**
 * Reads a document line and checks it against the app's schema: a known
 * table, an id of that table, a creation time, and fields its validator
 * accepts (a row of one of `systemTables`: fields it accepts). Anything
 * else is a {@link lineError}.
 */
export function parseDocumentLine(
  text: string,
  line: number,
  schema: SchemaDefinition,
  systemTables: readonly SystemTableBackup[] = [],
): BackupDocument {
  const value = parseObject(text, line);
  const { table, _id: id, _creationTime: creationTime, doc } = value;
  const system = systemTables.find((candidate) => candidate.table === table);
  if (typeof table !== "string" || (system === undefined && !Object.hasOwn(schema.tables, table))) {
    throw lineError(line, `table ${JSON.stringify(table)} is not in this app's schema`);
  }
  if (typeof id !== "string" || !isIdOf(table, id)) {
    throw lineError(line, `_id ${JSON.stringify(id)} is not an id of table ${table}`);
  }
  if (typeof creationTime !== "number" || !Number.isFinite(creationTime) || creationTime <= 0) {
    throw lineError(line, "_creationTime must be a positive number");
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw lineError(line, "doc must be a JSON object");
  }
  if (system !== undefined) {
    try {
      return { table, id, creationTime, json: system.check(doc as Record<string, unknown>) };
    } catch (error) {
      throw lineError(line, error instanceof Error ? error.message : String(error));
    }
  }
  const fields = fromJsonValue(doc);
  const issues: Issue[] = [];
  schema.tables[table]!.validator.check(fields, { path: [], issues });
  if (issues.length > 0) {
    const [first] = toValidationIssues(table, issues);
    throw lineError(line, `${first!.path}: ${first!.message}`);
  }
  return { table, id, creationTime, json: stringifyJson(fields) };
}
