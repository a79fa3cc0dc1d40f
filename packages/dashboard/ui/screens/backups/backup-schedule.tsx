import type { BackupSchedule } from "../../api/data-admin.ts";

/**
 * When the bucket backs every shard up, in the operator's words and as the
 * cron expression the worker was given (UTC), how many backups of each
 * shard are kept, and whether they carry the files' bytes
 * (`createWorker({ backups: { files } })`) or only their metadata.
 *
 * @example <BackupScheduleNote schedule={{ bucket: "BACKUPS", schedule: "0 3 * * *", keep: 7, files: false }} />
 */
export function BackupScheduleNote(props: { schedule: BackupSchedule }) {
  const { bucket, schedule, keep, files } = props.schedule;
  return (
    <div class="notice notice-info">
      <p class="notice-text" data-testid="backup-schedule">
        Every shard is backed up to the R2 bucket bound as <code>{bucket}</code> on the schedule{" "}
        <code class="cron">{schedule}</code> (cron, UTC); the {keep} newest backups of each shard
        are kept.{" "}
        {files
          ? "Each carries the bytes of the shard's files too."
          : "Each carries the shard's file metadata; the bytes stay in the files bucket."}
      </p>
    </div>
  );
}
