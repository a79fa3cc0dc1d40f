import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { dataAdminRoutes, type RestoreResult } from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { createProgress } from "../progress.ts";
import { type Output, stdout } from "./print-pages.ts";

/**
 * `svc restore <key> <file>`: imports a backup file (`-` for stdin) into an
 * empty shard, streaming it with upload progress on stderr. All or nothing:
 * a bad line fails the command with its line number and imports nothing.
 * Restoring under another key than the backup's clones a shard.
 *
 * @example await restoreFromFile(client, "room-1-copy", "room-1.ndjson");
 */
export async function restoreFromFile(
  client: AdminClient,
  key: string,
  file: string,
  out: Output = stdout,
): Promise<RestoreResult> {
  const progress = createProgress(`restore ${key}`, "bytes");
  if (file !== "-") progress.total = (await stat(file)).size;
  const source = file === "-" ? process.stdin : createReadStream(file);
  let sent = 0;
  const counted = (Readable.toWeb(source) as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        progress.update(sent);
        controller.enqueue(chunk);
      },
    }),
  );
  const result = await client.answer(dataAdminRoutes, "importShard", {
    params: { key },
    body: counted,
    contentType: "application/x-ndjson",
  });
  progress.finish(`${result.documents} documents restored`);
  out(JSON.stringify(result.tables));
  return result;
}

/** `svc restore <key> --backup <id>`: restores a backup from the app's R2 bucket into an empty shard. */
export async function restoreFromBucket(
  client: AdminClient,
  key: string,
  backup: string,
  out: Output = stdout,
): Promise<RestoreResult> {
  const progress = createProgress(`restore ${key} from ${backup}`, "documents");
  process.stderr.write(`restore ${key} from ${backup}…\n`);
  const result = await client.answer(dataAdminRoutes, "restoreShard", {
    params: { key },
    json: { backup },
  });
  progress.finish(`${result.documents} documents restored`);
  out(JSON.stringify(result.tables));
  return result;
}
