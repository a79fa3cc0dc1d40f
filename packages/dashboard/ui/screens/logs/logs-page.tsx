import { Link, navigate } from "../../lib/navigation.tsx";
import { hrefOf, type LogFilters, type LogView, NO_LOG_FILTERS } from "../../lib/routes.ts";
import { CallsView } from "./calls-view.tsx";
import { ErrorGroupsView } from "./error-groups.tsx";
import { JobsView } from "./jobs-view.tsx";
import { LogFiltersForm } from "./log-filters.tsx";

const VIEWS: readonly [LogView, string][] = [
  ["calls", "Calls"],
  ["errors", "Error groups"],
  ["jobs", "Cron & queues"],
];

/**
 * The Logs page: every recorded call with filters, a live tail and each
 * call's detail; failed calls grouped by error; cron jobs and queues with
 * their runs, failures and dead letters.
 */
export function LogsPage(props: { view: LogView; filters: LogFilters; record: string | null }) {
  const { view, filters } = props;
  const setFilters = (next: LogFilters) =>
    navigate(hrefOf({ page: "logs", view: "calls", filters: next }), { replace: true });
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title">Logs</h1>
          <p class="page-subtitle">
            One record per call: what ran, for whom, how it ended, what it printed.
          </p>
        </div>
      </header>
      <nav class="tabs" aria-label="Logs">
        {VIEWS.map(([name, label]) => (
          <Link
            key={name}
            class={view === name ? "tab active" : "tab"}
            aria-current={view === name ? "page" : undefined}
            href={hrefOf({
              page: "logs",
              view: name,
              filters: name === "calls" ? filters : NO_LOG_FILTERS,
            })}
          >
            {label}
          </Link>
        ))}
      </nav>
      {view === "calls" ? (
        <>
          <LogFiltersForm filters={filters} onChange={setFilters} />
          <CallsView key={JSON.stringify(filters)} filters={filters} record={props.record} />
        </>
      ) : view === "errors" ? (
        <ErrorGroupsView />
      ) : (
        <JobsView />
      )}
    </div>
  );
}
