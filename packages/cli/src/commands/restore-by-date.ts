import type { AdminClient } from "../admin-client.ts";
import { SvcCliError } from "../errors.ts";
import { type BackupRow, backupsList } from "./backup.ts";

/**
 * Reads `--at`: an ISO-8601 date or time (`2026-11-30`, `2026-11-30T09:00Z`).
 * A bare date means the end of that day (UTC), so `--at 2026-11-30` finds
 * that day's backup.
 */
function parseAt(at: string): number {
  const endOfDay = /^\d{4}-\d{2}-\d{2}$/.test(at) ? "T23:59:59.999Z" : "";
  const time = Date.parse(`${at}${endOfDay}`);
  if (Number.isNaN(time)) {
    throw new SvcCliError(
      "BAD_USAGE",
      `svc: --at ${JSON.stringify(at)} is not a date or time (ISO-8601, e.g. 2026-11-30 or 2026-11-30T09:00Z) (svc help)`,
    );
  }
  return time;
}

/**
 * The backup to restore "as of" a time: the newest R2 backup of `shard`
 * taken at or before `at` (now when absent), so a shard can be restored by
 * date without copying backup ids around. Fails naming the backups there
 * are when none is old enough.
 *
 * @example const { id } = await backupAt(client, "room-42", "2026-11-30");
 */
export async function backupAt(
  client: AdminClient,
  shard: string,
  at: string | undefined,
): Promise<BackupRow> {
  const until = at === undefined ? Date.now() : parseAt(at);
  const backups = await backupsList(client, { shard, json: false }, () => undefined);
  let chosen: BackupRow | undefined;
  for (const backup of backups) {
    const taken = Date.parse(backup.createdAt);
    if (taken <= until && (chosen === undefined || taken > Date.parse(chosen.createdAt))) {
      chosen = backup;
    }
  }
  if (chosen !== undefined) {
    process.stderr.write(`restoring ${shard}'s backup of ${chosen.createdAt}\n`);
    return chosen;
  }
  const oldest = backups.map((backup) => backup.createdAt).sort()[0];
  throw new SvcCliError(
    "BACKUP_NOT_FOUND",
    oldest === undefined
      ? `svc: shard ${JSON.stringify(shard)} has no backup in the bucket (svc backups --shard ${shard})`
      : `svc: no backup of ${JSON.stringify(shard)} was taken at or before ${new Date(until).toISOString()}; the oldest is of ${oldest} (svc backups --shard ${shard})`,
  );
}
