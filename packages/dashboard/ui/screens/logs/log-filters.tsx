import { ENTRY_POINTS } from "../../api/log-types.ts";
import { AdminCallsSwitch } from "../../components/admin-calls-switch.tsx";
import { DelayedFilter } from "../../components/delayed-filter.tsx";
import { type LogFilters, NO_LOG_FILTERS } from "../../lib/routes.ts";

function Choice(props: {
  label: string;
  value: string;
  options: readonly [string, string][];
  onChange: (value: string) => void;
}) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      <select
        class="input"
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

const STATUS_OPTIONS: readonly [string, string][] = [
  ["", "Any status"],
  ["failed", "Failed"],
  ["2xx", "2xx"],
  ["4xx", "4xx"],
  ["5xx", "5xx"],
];

const TIME_OPTIONS: readonly [string, string][] = [
  ["", "All stored"],
  ["15m", "Last 15 minutes"],
  ["1h", "Last hour"],
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
];

/**
 * The call list's filters: function, entry point, status, caller, shard,
 * time range, text, and whether the admin API's own calls show. Every change replaces the URL, so a filtered view
 * survives a reload and can be shared.
 */
export function LogFiltersForm(props: {
  filters: LogFilters;
  onChange: (filters: LogFilters) => void;
}) {
  const { filters } = props;
  const set = (name: keyof LogFilters) => (value: string) =>
    props.onChange({ ...filters, [name]: value });
  const statusOptions = STATUS_OPTIONS.some(([value]) => value === filters.status)
    ? STATUS_OPTIONS
    : [...STATUS_OPTIONS, [filters.status, filters.status] as [string, string]];
  const anySet = Object.values(filters).some((value) => value !== "");
  return (
    <search class="filters">
      <DelayedFilter
        search
        label="Function"
        value={filters.function}
        placeholder="messages:send or GET /api/me"
        grow
        onChange={set("function")}
      />
      <Choice
        label="Entry point"
        value={filters.entry}
        options={[
          ["", "Any entry"],
          ...ENTRY_POINTS.map((entry) => [entry, entry] as [string, string]),
        ]}
        onChange={set("entry")}
      />
      <Choice
        label="Status"
        value={filters.status}
        options={statusOptions}
        onChange={set("status")}
      />
      <Choice label="Time" value={filters.since} options={TIME_OPTIONS} onChange={set("since")} />
      <DelayedFilter
        search
        label="Caller"
        value={filters.user}
        placeholder="Email, user id, cron:job…"
        onChange={set("user")}
      />
      <DelayedFilter
        search
        label="Shard"
        value={filters.shard}
        placeholder="Shard key"
        onChange={set("shard")}
      />
      <DelayedFilter
        search
        label="Text"
        value={filters.q}
        placeholder="In errors and console lines"
        grow
        onChange={set("q")}
      />
      <AdminCallsSwitch
        checked={filters.admin === "include"}
        onChange={(checked) => set("admin")(checked ? "include" : "")}
      />
      {anySet ? (
        <button
          type="button"
          class="btn btn-small filters-clear"
          onClick={() => props.onChange(NO_LOG_FILTERS)}
        >
          Clear
        </button>
      ) : null}
    </search>
  );
}
