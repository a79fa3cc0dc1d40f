import { createWriteStream } from "node:fs";
import { Writable } from "node:stream";
import { type BackupInfo, dataAdminRoutes } from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { createProgress } from "../progress.ts";
import { type Output, stdout } from "./print-pages.ts";

/** A backup in the app's R2 bucket, as `GET backups` lists it (the route's declaration). */
export type BackupRow = BackupInfo;

const NEWLINE = 0x0a;

/**
 * `svc backup <key> [-o <file>]`: exports a shard (a consistent snapshot:
 * its writes wait while it streams) into an NDJSON file — `<key>.ndjson` by
 * default, `-` for stdout — with progress on stderr. Answers the number of
 * documents written.
 *
 * @example await backupToFile(client, "room-1", { output: "room-1.ndjson" });
 */
export async function backupToFile(
  client: AdminClient,
  key: string,
  options: { output?: string | undefined },
): Promise<number> {
  const output = options.output ?? `${key.replace(/[^A-Za-z0-9._-]/g, "_")}.ndjson`;
  const response = await client.call(dataAdminRoutes, "exportShard", { params: { key } });
  const progress = createProgress(`backup ${key}`, "documents");
  const sink = output === "-" ? process.stdout : createWriteStream(output);
  const writer = Writable.toWeb(sink).getWriter();
  let lines = 0;
  let files = 0;
  let header = "";
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (lines === 0) {
      header += decoder.decode(value, { stream: true });
      const end = header.indexOf("\n");
      if (end !== -1) {
        const parsed = JSON.parse(header.slice(0, end)) as {
          tables?: Record<string, number>;
          files?: number;
        };
        progress.total = Object.values(parsed.tables ?? {}).reduce((sum, n) => sum + n, 0);
        // One metadata line per stored file follows the documents (docs/storage.md).
        files = parsed.files ?? 0;
      }
    }
    for (const byte of value) if (byte === NEWLINE) lines += 1;
    await writer.write(value);
    progress.update(Math.min(Math.max(0, lines - 1), progress.total ?? Infinity));
  }
  await writer.close();
  const documents = Math.max(0, lines - 1 - files);
  if (progress.total !== undefined && documents !== progress.total) {
    throw new Error(
      `svc: the backup of ${key} was cut: ${documents} of ${progress.total} documents arrived${output === "-" ? "" : ` (${output} is incomplete)`}`,
    );
  }
  progress.finish(`${documents} documents written to ${output === "-" ? "stdout" : output}`);
  return documents;
}

/**
 * `svc backup <key> --bucket [--files]`: backs the shard up into the app's
 * R2 bucket now; `files` adds the bytes of its stored files to their metadata.
 */
export async function backupToBucket(
  client: AdminClient,
  key: string,
  options: { files?: boolean | undefined } = {},
  out: Output = stdout,
): Promise<BackupRow> {
  const progress = createProgress(`backup ${key} to the bucket`, "documents");
  process.stderr.write(`backup ${key} to the bucket…\n`);
  const info = await client.answer(dataAdminRoutes, "backupShard", {
    params: { key },
    ...(options.files === true ? { query: { files: "true" } } : {}),
  });
  progress.finish(`${info.documents} documents`);
  out(info.id);
  return info;
}

/** `svc backups [--shard <key>] [--json]`: the backups in the app's R2 bucket, oldest first per shard. */
export async function backupsList(
  client: AdminClient,
  options: { shard?: string | undefined; json: boolean },
  out: Output = stdout,
): Promise<BackupRow[]> {
  const all: BackupRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.answer(dataAdminRoutes, "listBackups", {
      query: { shard: options.shard, cursor },
    });
    for (const backup of page.backups) {
      out(
        options.json
          ? JSON.stringify(backup)
          : `${backup.createdAt}  ${backup.shardKey.padEnd(32)} ${String(backup.documents).padStart(10)}  ${backup.id}`,
      );
    }
    all.push(...page.backups);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}
