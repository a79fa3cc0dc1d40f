import { useEffect, useState } from "preact/hooks";
import {
  type MigrationRun,
  type MigrationStatus,
  type MigrationSummary,
  useDataAdminApi,
} from "../../api/data-admin.ts";
import { NameText } from "../../components/name-text.tsx";
import { ProgressMeter } from "../../components/progress-meter.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { ErrorNotice } from "../../components/states.tsx";

/** How often a running migration's progress is asked for. */
const POLL_MS = 1_000;

/** Whether every shard that has the migration has finished it (done, or stopped on a document). */
function finished(summary: MigrationSummary): boolean {
  return summary.shards.running === 0 && summary.shards.registered === 0;
}

/** A shard's row: its state and counts now, or, before the first poll, what it answered the run. */
type ShardRow = MigrationStatus["byShard"][number]["status"] | null;

/**
 * A started run, followed to its end: `GET migrations?name=` asked every
 * second for how many shards are done and how many documents changed (a
 * progress bar) and for each shard's own state and counts (a row each,
 * starting from what the shard answered the run), until no shard is still
 * running; then `onFinished`.
 *
 * @example <RunProgress run={answer} onFinished={reload} />
 */
export function RunProgress(props: { run: MigrationRun; onFinished: () => void }) {
  const api = useDataAdminApi();
  const [summary, setSummary] = useState<MigrationSummary | null>(null);
  const [byShard, setByShard] = useState<Map<string, ShardRow>>(new Map());
  const [error, setError] = useState<Error | null>(null);
  const { name } = props.run;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const status = await api.listMigrations({ query: { name }, signal: controller.signal });
        const found = status.migrations.find((migration) => migration.name === name) ?? null;
        setSummary(found);
        setByShard(new Map(status.byShard.map((entry) => [entry.key, entry.status])));
        setError(null);
        if (found !== null && finished(found)) {
          props.onFinished();
          return;
        }
      } catch (failure) {
        if (controller.signal.aborted) return;
        setError(failure instanceof Error ? failure : new Error(String(failure)));
      }
      timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, name]);

  const total = summary
    ? summary.shards.registered +
      summary.shards.running +
      summary.shards.stopped +
      summary.shards.done
    : undefined;
  const done = summary?.shards.done ?? 0;
  const text =
    summary === null
      ? "Starting…"
      : `${finished(summary) ? "Finished" : "Running"}: done in ${done} of ${total} shards` +
        `${summary.shards.stopped > 0 ? `, stopped in ${summary.shards.stopped}` : ""}; ` +
        `${summary.documents.changed} changed, ${summary.documents.deleted} deleted, ${summary.documents.failed} failed`;

  return (
    <div class="stack">
      <ProgressMeter label={`Running ${name}`} value={done} max={total} text={text} />
      {error ? <ErrorNotice error={error} compact /> : null}
      <RowsTable
        caption="Progress by shard"
        columns={["Shard", "State", "Checked", "Changed", "Failed"]}
      >
        {props.run.shards.map(({ key, status: started, error: shardError }) => {
          const status = byShard.get(key) ?? started;
          return (
            <tr key={key} data-shard={key}>
              <td data-label="Shard" class="cell-wrap">
                <code>
                  <NameText text={key} />
                </code>
              </td>
              <td data-label="State" class="cell-wrap">
                {status === null ? (shardError?.message ?? "No answer.") : status.state}
              </td>
              <td data-label="Checked">{status?.scanned ?? 0}</td>
              <td data-label="Changed">{status?.changed ?? 0}</td>
              <td data-label="Failed">{status?.failed ?? 0}</td>
            </tr>
          );
        })}
      </RowsTable>
    </div>
  );
}
