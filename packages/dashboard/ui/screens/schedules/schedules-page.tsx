import { JOB_STATES, type ScheduledJobView } from "@svc/server/routes/contract";
import { useMemo, useState } from "preact/hooks";
import { schedulesApi } from "../../api/schedules.ts";
import { useApp } from "../../app-context.ts";
import { DelayedFilter } from "../../components/delayed-filter.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf, type ScheduleFilters } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { AcrossShardsResults } from "./across-shards.tsx";
import { CancelDialog } from "./cancel-dialog.tsx";
import { JobTable } from "./job-table.tsx";

const PAGE_SIZE = 50;

/**
 * The Schedules page: one shard's scheduled jobs (ctx.scheduler), or every
 * shard's through the registry ("All shards"), filtered by state, function
 * and the user who scheduled them; cancel one pending job, or every pending
 * job the filters select.
 */
export function SchedulesPage(props: { filters: ScheduleFilters }) {
  const { filters } = props;
  const across = filters.all === "1";
  const set = (change: Partial<ScheduleFilters>) =>
    navigate(hrefOf({ page: "schedules", filters: { ...filters, ...change } }), {
      replace: true,
    });
  return (
    <div class="page">
      <PageHeader
        title="Schedules"
        subtitle="Jobs procedures scheduled with ctx.scheduler, by due time, in one shard or in every shard the registry knows."
      />
      <search class="filters">
        <label class="field">
          <span class="field-label">Shards</span>
          <select
            class="input"
            value={across ? "all" : "one"}
            onChange={(event) => set({ all: event.currentTarget.value === "all" ? "1" : "" })}
          >
            <option value="one">One shard</option>
            <option value="all">All shards</option>
          </select>
        </label>
        <DelayedFilter
          label={across ? "Shard key contains" : "Shard"}
          value={filters.shard}
          placeholder="room-1"
          onChange={(shard) => set({ shard })}
        />
        <label class="field">
          <span class="field-label">State</span>
          <select
            class="input"
            value={filters.state}
            onChange={(event) => set({ state: event.currentTarget.value })}
          >
            <option value="">Any state</option>
            {JOB_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
        <DelayedFilter
          grow
          label="Function"
          value={filters.function}
          placeholder="reminders:send"
          onChange={(fn) => set({ function: fn })}
        />
        <DelayedFilter
          label="User"
          value={filters.user}
          placeholder="User ID"
          onChange={(user) => set({ user })}
        />
      </search>
      {across ? (
        <AcrossShardsResults key={JSON.stringify(filters)} filters={filters} />
      ) : filters.shard === "" ? (
        <Empty title="Pick a shard">Type a shard key to see the jobs scheduled in it.</Empty>
      ) : (
        <ScheduleResults key={JSON.stringify(filters)} filters={filters} />
      )}
    </div>
  );
}

function ScheduleResults(props: { filters: ScheduleFilters }) {
  const { transport } = useApp();
  const notify = useToast();
  const api = useMemo(() => schedulesApi(transport), [transport]);
  const { shard, state, function: fn, user } = props.filters;
  const [version, setVersion] = useState(0);
  const [confirm, setConfirm] = useState<ScheduledJobView | "filtered" | null>(null);
  const list = usePagedList(
    async (cursor, signal) => {
      const known = JOB_STATES.find((candidate) => candidate === state);
      const query = {
        ...(known ? { state: known } : {}),
        ...(fn ? { function: fn } : {}),
        ...(user ? { user } : {}),
        limit: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      };
      const page = await api.list(shard, query, signal);
      return { items: page.jobs, nextCursor: page.nextCursor };
    },
    [api, version],
  );
  const filtered = fn !== "" || user !== "";
  const cancel = async () => {
    if (confirm === null) return;
    const body =
      confirm === "filtered"
        ? {
            ...(fn ? { function: fn } : {}),
            ...(user ? { user } : {}),
            ...(filtered ? {} : { all: true }),
          }
        : { ids: [confirm.id] };
    const { canceled } = await api.cancel(shard, body);
    notify(`${canceled} job${canceled === 1 ? "" : "s"} canceled.`);
    setVersion((n) => n + 1);
  };
  return (
    <LoadView loaded={list.first} label="Loading the jobs…">
      {() =>
        list.items.length === 0 ? (
          <Empty title="No jobs match">
            Jobs scheduled in this shard appear here; finished ones stay 7 days.
          </Empty>
        ) : (
          <>
            <div class="filters">
              <button type="button" class="btn btn-small" onClick={() => setConfirm("filtered")}>
                {filtered ? "Cancel matching pending jobs…" : "Cancel all pending jobs…"}
              </button>
            </div>
            <div class="card card-flush">
              <JobTable jobs={list.items} onCancel={setConfirm} />
              <LoadMore list={list} label="Load more jobs" />
            </div>
            {confirm === null ? null : (
              <CancelDialog
                target={confirm}
                title="Cancel pending jobs"
                where={{
                  filtered: (
                    <>
                      of shard <code>{shard}</code>
                    </>
                  ),
                  job: null,
                }}
                filtered={filtered}
                onConfirm={cancel}
                onClose={() => setConfirm(null)}
              />
            )}
          </>
        )
      }
    </LoadView>
  );
}
