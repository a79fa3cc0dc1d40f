import { endpointStub } from "../model/endpoint-stub.ts";
import type { RegistryEndpoint } from "../registry/data-endpoint.ts";
import { registryPartitionNames } from "../registry/partitions.ts";
import type { BackupsOptions } from "./options.ts";

const DEFAULT_KEEP = 7;

/**
 * Checks `createWorker({ backups })` before anything is served and fills in
 * the defaults.
 *
 * @example backupsOptionOf({ bucket: "BACKUPS", schedule: "0 3 * * *" }) // { …, keep: 7, files: false }
 */
export function backupsOptionOf(
  option: BackupsOptions | undefined,
): Required<BackupsOptions> | undefined {
  if (option === undefined) return undefined;
  if (typeof option.bucket !== "string" || option.bucket === "") {
    throw new Error(
      "svc: backups.bucket must name the R2 bucket binding (r2_buckets in wrangler.jsonc)",
    );
  }
  if (typeof option.schedule !== "string" || option.schedule.trim().split(/\s+/).length !== 5) {
    throw new Error(
      'svc: backups.schedule must be a cron expression of five fields (e.g. "0 3 * * *"), also listed under triggers.crons',
    );
  }
  const keep = option.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 1)
    throw new Error("svc: backups.keep must be a positive integer");
  const files = option.files ?? false;
  if (typeof files !== "boolean") throw new Error("svc: backups.files must be true or false");
  return {
    bucket: option.bucket,
    schedule: option.schedule.trim().split(/\s+/).join(" "),
    keep,
    files,
  };
}

/**
 * Starts a backup run of every shard: each registry partition backs up its
 * own shards, a few at a time, one step per alarm (see
 * registry/backup-run.ts), with their files' bytes when `backups.files`
 * says so. The cron invocation itself only sends one call
 * per partition, so it finishes at once however many shards exist.
 */
export async function startBackupRuns(
  namespace: DurableObjectNamespace,
  backups: Required<BackupsOptions>,
  scheduledTime: number,
): Promise<void> {
  const id = new Date(scheduledTime).toISOString();
  const started = await Promise.allSettled(
    registryPartitionNames().map((name) =>
      endpointStub<RegistryEndpoint>(namespace, name).backupRunStart({
        id,
        bucket: backups.bucket,
        keep: backups.keep,
        files: backups.files,
      }),
    ),
  );
  for (const result of started) {
    if (result.status === "rejected") {
      console.error(`svc: a registry partition could not start backup run ${id}`, result.reason);
    }
  }
}
