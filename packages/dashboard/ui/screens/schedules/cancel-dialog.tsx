import type { ScheduledJobView } from "@svc/server/routes/contract";
import type { ComponentChildren } from "preact";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";

/**
 * The confirmation before a cancel on the Schedules page: of one job, or of
 * every pending job the filters select (`"filtered"`), in one shard or in
 * every shard; `where` says which ("of shard room-1"), `filtered` whether the
 * function and user filters narrow it.
 *
 * @example <CancelDialog target="filtered" title="Cancel pending jobs" where={…} filtered onConfirm={cancel} onClose={close} />
 */
export function CancelDialog(props: {
  target: ScheduledJobView | "filtered";
  /** The title of a filtered cancel ("Cancel pending jobs in every shard"). */
  title: string;
  /** What follows "Every pending job" for a filtered cancel, and "Job … (function)" for one job. */
  where: { filtered: ComponentChildren; job: ComponentChildren };
  filtered: boolean;
  onConfirm(): Promise<void>;
  onClose(): void;
}) {
  const { target } = props;
  const many = target === "filtered";
  return (
    <ConfirmDialog
      title={many ? props.title : "Cancel this job"}
      confirmLabel={many ? "Cancel jobs" : "Cancel job"}
      danger
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      {many ? (
        <p>
          Every pending job {props.where.filtered}
          {props.filtered ? " that matches the function and user filters" : ""} will not run.
        </p>
      ) : (
        <p>
          Job <code>{target.id}</code> ({target.function}) {props.where.job}will not run.
        </p>
      )}
    </ConfirmDialog>
  );
}
