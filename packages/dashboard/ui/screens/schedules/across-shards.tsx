import { JOB_STATES, type ShardFailure, type ShardJobView } from "@svc/server/routes/contract";
import { useMemo, useState } from "preact/hooks";
import { schedulesApi } from "../../api/schedules.ts";
import { useApp } from "../../app-context.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf, type ScheduleFilters } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { CancelDialog } from "./cancel-dialog.tsx";
import { JobTable } from "./job-table.tsx";

/** Shards asked per page (the API asks 8 at a time); each gives its first {@link PER_SHARD} jobs. */
const SHARDS_PER_PAGE = 20;
const PER_SHARD = 20;
/** Pages of shards one load asks at most while they hold no matching job. */
const PAGES_PER_LOAD = 10;

/** What the pages loaded so far said besides their jobs: shards with more, shards that failed. */
interface Notes {
  more: string[];
  errors: ShardFailure[];
}

/**
 * The Schedules page's "All shards" view: the jobs of every shard the
 * registry knows (whose key contains the Shard filter, when given), a page
 * of shards at a time, by due time, each with a link
 * to its shard's own view. Shards holding more than shown, and shards that
 * could not answer (with their error), are listed above the jobs. Cancel
 * one job in its shard, or every pending job the filters select in every
 * shard.
 */
export function AcrossShardsResults(props: { filters: ScheduleFilters }) {
  const { transport } = useApp();
  const notify = useToast();
  const api = useMemo(() => schedulesApi(transport), [transport]);
  const { filters } = props;
  const { shard, state, function: fn, user } = filters;
  const [version, setVersion] = useState(0);
  const [notes, setNotes] = useState<Notes>({ more: [], errors: [] });
  const [confirm, setConfirm] = useState<ShardJobView | "filtered" | null>(null);
  const list = usePagedList(
    async (from, signal) => {
      const known = JOB_STATES.find((candidate) => candidate === state);
      const found: Notes & { jobs: ShardJobView[] } = { jobs: [], more: [], errors: [] };
      let cursor = from ?? null;
      // Pages of shards holding no matching job are passed over, a bounded number per load.
      for (let asked = 0; asked < PAGES_PER_LOAD; asked++) {
        const page = await api.listAcross(
          {
            ...(known ? { state: known } : {}),
            ...(fn ? { function: fn } : {}),
            ...(user ? { user } : {}),
            ...(shard ? { search: shard } : {}),
            shards: SHARDS_PER_PAGE,
            limit: PER_SHARD,
            ...(cursor ? { cursor } : {}),
          },
          signal,
        );
        found.jobs.push(...page.jobs);
        found.more.push(...page.more);
        found.errors.push(...page.errors);
        cursor = page.nextCursor;
        if (found.jobs.length > 0 || cursor === null) break;
      }
      setNotes((before) =>
        from === undefined
          ? { more: found.more, errors: found.errors }
          : {
              more: [...before.more, ...found.more],
              errors: [...before.errors, ...found.errors],
            },
      );
      return { items: found.jobs, nextCursor: cursor };
    },
    [api, version],
  );
  const shardView = (key: string) =>
    hrefOf({ page: "schedules", filters: { ...filters, all: "", shard: key } });
  const filtered = fn !== "" || user !== "";
  const cancel = async () => {
    if (confirm === null) return;
    const canceled =
      confirm === "filtered"
        ? await api.cancelAcross({
            ...(fn ? { function: fn } : {}),
            ...(user ? { user } : {}),
            ...(filtered ? {} : { all: true }),
            ...(shard ? { search: shard } : {}),
          })
        : (await api.cancel(confirm.shard, { ids: [confirm.id] })).canceled;
    notify(`${canceled} job${canceled === 1 ? "" : "s"} canceled.`);
    setVersion((n) => n + 1);
  };
  return (
    <LoadView loaded={list.first} label="Loading the jobs of every shard…">
      {() => (
        <>
          {notes.errors.length === 0 ? null : (
            <div class="notice notice-danger" role="alert">
              <p class="notice-text">
                {notes.errors.length === 1 ? "A shard" : `${notes.errors.length} shards`} could not
                list their jobs:
              </p>
              <ul>
                {notes.errors.map((failure) => (
                  <li key={failure.shard}>
                    <Link href={shardView(failure.shard)}>{failure.shard}</Link>: {failure.code}{" "}
                    {failure.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {notes.more.length === 0 ? null : (
            <div class="notice notice-info">
              <p class="notice-text">
                Only the first {PER_SHARD} jobs of each shard are shown; these hold more:{" "}
                {notes.more.map((shard, index) => (
                  <span key={shard}>
                    {index === 0 ? "" : ", "}
                    <Link href={shardView(shard)}>{shard}</Link>
                  </span>
                ))}
              </p>
            </div>
          )}
          {list.items.length === 0 ? (
            <Empty title="No jobs match">
              Jobs scheduled in any shard the registry knows appear here; finished ones stay 7 days.
            </Empty>
          ) : (
            <>
              <div class="filters">
                <button type="button" class="btn btn-small" onClick={() => setConfirm("filtered")}>
                  {filtered
                    ? "Cancel matching pending jobs in every shard…"
                    : "Cancel all pending jobs in every shard…"}
                </button>
              </div>
              <div class="card card-flush">
                <JobTable
                  jobs={list.items}
                  onCancel={setConfirm}
                  shardOf={(job) => ({ key: job.shard, href: shardView(job.shard) })}
                />
                <LoadMore list={list} label="Load more shards" />
              </div>
            </>
          )}
          {confirm === null ? null : (
            <CancelDialog
              target={confirm}
              title="Cancel pending jobs in every shard"
              where={{
                filtered: <>of every shard{shard ? ` whose key contains “${shard}”` : ""}</>,
                job: (
                  <>
                    of shard <code>{confirm === "filtered" ? "" : confirm.shard}</code>{" "}
                  </>
                ),
              }}
              filtered={filtered}
              onConfirm={cancel}
              onClose={() => setConfirm(null)}
            />
          )}
        </>
      )}
    </LoadView>
  );
}
