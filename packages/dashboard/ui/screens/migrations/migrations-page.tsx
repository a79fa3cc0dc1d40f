import { useState } from "preact/hooks";
import { type MigrationRun, useDataAdminApi } from "../../api/data-admin.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, ErrorNotice, Loading, LoadView } from "../../components/states.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { DryRunReport } from "./dry-run-report.tsx";
import { MigrationList } from "./migration-list.tsx";
import { RunProgress } from "./run-progress.tsx";

/** What the page shows under the list: nothing, a dry run's report, or a run's progress. */
type Outcome = { kind: "dryRun" | "run"; run: MigrationRun } | { kind: "failed"; error: Error };

/**
 * The app's data migrations over every shard (`GET migrations`): each one's
 * state per shard and documents changed; a dry run that shows, shard by
 * shard, what a run would change (nothing written); and a run, confirmed
 * first and audited, followed to completion.
 *
 * @example <MigrationsPage />
 */
export function MigrationsPage() {
  const api = useDataAdminApi();
  const status = useLoad((signal) => api.listMigrations({ query: {}, signal }), [api]);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const dryRun = async (name: string) => {
    setBusy(name);
    setOutcome(null);
    try {
      const run = await api.runMigration({ params: { name }, query: { dryRun: true } });
      setOutcome({ kind: "dryRun", run });
    } catch (error) {
      setOutcome({
        kind: "failed",
        error: error instanceof Error ? error : new Error(String(error)),
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="page">
      <PageHeader
        title="Migrations"
        subtitle="The app's data migrations, shard by shard. A dry run writes nothing; a run goes through each shard in batches while the app keeps serving."
      />
      <Section title="Migrations" count={status.data?.migrations.length}>
        <LoadView loaded={status} label="Asking every shard…">
          {({ migrations, shards, unreachable, nextCursor }) => (
            <>
              <p class="small muted">
                Over {shards} {shards === 1 ? "shard" : "shards"}
                {nextCursor === null ? "" : " (the first ones in key order)"}
                {unreachable.length > 0 ? `; ${unreachable.length} could not answer` : ""}.
              </p>
              {migrations.length === 0 ? (
                <Empty title="No migrations">
                  Declare one in <code>svc/migrations/</code> (see docs/data-lifecycle.md).
                </Empty>
              ) : (
                <MigrationList
                  migrations={migrations}
                  busy={busy}
                  onDryRun={(name) => void dryRun(name)}
                  onRun={setConfirming}
                />
              )}
            </>
          )}
        </LoadView>
      </Section>
      {busy !== null ? <Loading label={`Dry run of ${busy}…`} /> : null}
      {outcome?.kind === "failed" ? <ErrorNotice error={outcome.error} /> : null}
      {outcome !== null && outcome.kind !== "failed" ? (
        <Section title={outcome.kind === "dryRun" ? "Dry run" : "Run"}>
          {outcome.kind === "dryRun" ? (
            <DryRunReport run={outcome.run} />
          ) : (
            <RunProgress run={outcome.run} onFinished={status.reload} />
          )}
        </Section>
      ) : null}
      {confirming !== null ? (
        <ConfirmDialog
          title={`Run ${confirming}?`}
          confirmLabel="Run migration"
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            const run = await api.runMigration({ params: { name: confirming } });
            setOutcome({ kind: "run", run });
          }}
        >
          <p>
            Every shard rewrites the documents <code>{confirming}</code> changes, in batches, while
            the app keeps serving. A dry run first shows what would change. The audit trail records
            the run.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
