import { createInterface } from "node:readline/promises";
import { dataAdminRoutes, type ShardListEntry as ShardEntry } from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { SvcCliError } from "../errors.ts";
import { type Output, printPages, stdout } from "./print-pages.ts";

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `svc shards list [--search <text>] [--limit <n>] [--json]`: the shards the
 * registry knows, in key order, page by page as they arrive (a table, or one
 * JSON object per line with `--json`). Answers how many were printed.
 *
 * @example await shardsList(client, { search: "room-", json: false });
 */
export async function shardsList(
  client: AdminClient,
  options: { search?: string | undefined; limit?: number | undefined; json: boolean },
  out: Output = stdout,
): Promise<number> {
  return printPages<ShardEntry>(
    {
      header: `${"KEY".padEnd(32)} ${"DOCUMENTS".padStart(10)} ${"SIZE".padStart(10)}  LAST WRITE                SCHEMA`,
      noun: "shard",
      json: options.json,
      limit: options.limit,
      fetch: async (cursor, limit) => {
        const page = await client.answer(dataAdminRoutes, "listShards", {
          query: { search: options.search, cursor, limit },
        });
        return { items: page.shards, cursor: page.nextCursor };
      },
      row: (shard) =>
        `${shard.key.padEnd(32)} ${String(shard.documents).padStart(10)} ${size(shard.sizeBytes).padStart(10)}  ${(shard.lastWriteAt ?? "-").padEnd(24)}  ${shard.schemaVersion ?? "-"}`,
    },
    out,
  );
}

/** `svc shards show <key> [--json]`: one shard's registry row. */
export async function shardsShow(
  client: AdminClient,
  key: string,
  options: { json: boolean },
  out: Output = stdout,
): Promise<ShardEntry> {
  const shard = await client.answer(dataAdminRoutes, "getShard", { params: { key } });
  if (options.json) {
    out(JSON.stringify(shard, null, 2));
    return shard;
  }
  out(`shard          ${shard.key}`);
  out(`documents      ${shard.documents}`);
  for (const table of shard.tables) out(`  ${table.name.padEnd(13)}${table.documents}`);
  out(`size           ${size(shard.sizeBytes)}`);
  out(`created        ${shard.createdAt}`);
  out(`last write     ${shard.lastWriteAt ?? "-"}`);
  out(`reported       ${shard.reportedAt}`);
  out(`schema version ${shard.schemaVersion ?? "-"}`);
  return shard;
}

/**
 * `svc shards delete <key> [--confirm <key>]`: deletes every document of a
 * shard. The key must be typed again: `--confirm`, or at the prompt on a
 * terminal; the server checks it too, and records the deletion in the audit
 * trail with the token's operator.
 */
export async function shardsDelete(
  client: AdminClient,
  key: string,
  options: { confirm?: string | undefined },
  out: Output = stdout,
): Promise<number> {
  let confirm = options.confirm;
  if (confirm === undefined) {
    if (!process.stdin.isTTY) {
      throw new SvcCliError(
        "BAD_USAGE",
        `svc: deleting a shard's data needs the key typed again: --confirm ${JSON.stringify(key)}`,
      );
    }
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    confirm = await prompt.question(
      `This deletes every document of shard ${JSON.stringify(key)}. Type the shard key to confirm: `,
    );
    prompt.close();
  }
  const { documents } = await client.answer(dataAdminRoutes, "deleteShard", {
    params: { key },
    query: { confirm },
  });
  out(`deleted shard ${key}: ${documents} documents`);
  return documents;
}
