import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { type FileAdminView, filesAdminRoutes } from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { type Output, printPages, stdout } from "./print-pages.ts";

const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
};

/**
 * `svc files list <key> [--json]`: a shard's files, oldest first, with the
 * documents that reference them (a table, or one JSON object per line).
 * Answers how many were printed.
 *
 * @example await filesList(client, "team-1", { json: false });
 */
export async function filesList(
  client: AdminClient,
  key: string,
  options: { json: boolean },
  out: Output = stdout,
): Promise<number> {
  return printPages<FileAdminView>(
    {
      header: `${"STORAGE ID".padEnd(36)} ${"STATE".padEnd(9)} ${"SIZE".padStart(10)}  TYPE  REFERENCED BY`,
      noun: "file",
      json: options.json,
      fetch: async (cursor, limit) => {
        const page = await client.answer(filesAdminRoutes, "listFiles", {
          params: { key },
          query: { cursor, limit },
        });
        return { items: page.files, cursor: page.cursor };
      },
      row: (file) => {
        const references = file.references.map((ref) => `${ref.table}/${ref.id}`).join(", ");
        return `${file.storageId.padEnd(36)} ${file.state.padEnd(9)} ${String(file.size ?? "-").padStart(10)}  ${file.contentType ?? "-"}  ${references || "-"}`;
      },
    },
    out,
  );
}

/**
 * `svc files get <key> <storage id> [-o <file>]`: downloads a file (default
 * `<storage id>` in the current folder; `-` for stdout). Answers the bytes written.
 *
 * @example await filesGet(client, "team-1", "_storage_…", { output: "avatar.png" });
 */
export async function filesGet(
  client: AdminClient,
  key: string,
  storageId: string,
  options: { output?: string | undefined },
): Promise<number> {
  const output = options.output ?? storageId;
  const response = await client.call(filesAdminRoutes, "downloadFile", {
    params: { key, id: storageId },
  });
  const sink = output === "-" ? process.stdout : createWriteStream(output);
  const writer = Writable.toWeb(sink).getWriter();
  let written = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    written += value.byteLength;
    await writer.write(value);
  }
  await writer.close();
  return written;
}

/**
 * `svc files put <key> <file>`: stores a file in a shard (its type from its
 * extension) and prints its storage id.
 *
 * @example await filesPut(client, "team-1", "logo.png");
 */
export async function filesPut(
  client: AdminClient,
  key: string,
  file: string,
  out: Output = stdout,
): Promise<string> {
  const bytes = new Uint8Array(await readFile(file));
  const contentType = TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
  const { storageId } = await client.answer(filesAdminRoutes, "uploadFile", {
    params: { key },
    body: bytes,
    contentType,
  });
  out(storageId);
  return storageId;
}

/**
 * `svc files rm <key> <storage id>`: deletes a file (its metadata and bytes).
 *
 * @example await filesRemove(client, "team-1", "_storage_…");
 */
export async function filesRemove(
  client: AdminClient,
  key: string,
  storageId: string,
  out: Output = stdout,
): Promise<void> {
  await client.call(filesAdminRoutes, "deleteFile", { params: { key, id: storageId } });
  out(`deleted ${storageId}`);
}
