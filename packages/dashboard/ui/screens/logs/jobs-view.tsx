import { useApp } from "../../app-context.ts";
import { Empty, LoadView } from "../../components/states.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { CronTable } from "./cron-table.tsx";
import { QueueTable } from "./queue-table.tsx";

/**
 * Cron jobs and queue consumers: what ran over the last 24 hours (runs,
 * failures, dead-lettered messages, the last run and failure of each; every
 * declared job and queue is listed, with zeros until it first runs), and
 * what comes next: each job's next run with "Run now", each queue's backlog.
 */
export function JobsView() {
  const { logs } = useApp();
  const loaded = useLoad(async (signal) => {
    const [cron, queues] = await Promise.all([
      logs.cron("24h", signal),
      logs.queues("24h", signal),
    ]);
    return { jobs: cron.jobs, queues: queues.queues };
  }, []);
  return (
    <LoadView loaded={loaded} label="Loading cron jobs and queues…">
      {({ jobs, queues }) => (
        <>
          <section class="section" aria-labelledby="cron-title">
            <h2 id="cron-title" class="section-title">
              Cron jobs <span class="muted">· last 24 hours</span>
            </h2>
            {jobs.length === 0 ? (
              <Empty title="No cron jobs">Declare them in svc/crons.ts.</Empty>
            ) : (
              <CronTable jobs={jobs} onRan={loaded.reload} />
            )}
          </section>
          <section class="section" aria-labelledby="queues-title">
            <h2 id="queues-title" class="section-title">
              Queues <span class="muted">· last 24 hours</span>
            </h2>
            {queues.length === 0 ? (
              <Empty title="No queue consumers">Declare them in svc/queues.ts.</Empty>
            ) : (
              <QueueTable queues={queues} />
            )}
          </section>
        </>
      )}
    </LoadView>
  );
}
