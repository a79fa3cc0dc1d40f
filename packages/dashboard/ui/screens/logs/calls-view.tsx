import { useEffect, useMemo, useState } from "preact/hooks";
import { type CallRecord, ENTRY_POINTS } from "../../api/log-types.ts";
import type { LogQuery } from "../../api/logs.ts";
import { useApp } from "../../app-context.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { Empty, ErrorNotice, LoadView } from "../../components/states.tsx";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf, type LogFilters } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { CallTable } from "./call-table.tsx";
import { withCallerId } from "./caller-by-email.ts";
import { RecordDrawer } from "./record-drawer.tsx";

const PAGE_SIZE = 50;
/** Calls per page on a phone, where each call is a card: the page stays a few screens tall. */
const PHONE_PAGE_SIZE = 10;

/** Calls per page for this screen's width (the phone layout's breakpoint). */
function pageSize(): number {
  return window.matchMedia("(max-width: 720px)").matches ? PHONE_PAGE_SIZE : PAGE_SIZE;
}
/** New calls a live tail keeps on screen above the loaded pages. */
const LIVE_KEPT = 500;

/**
 * The URL's filters as the API's query; an entry point the URL names but the
 * API does not know is left out, and admin calls are included only when the
 * URL says `include`.
 */
function queryOf(filters: LogFilters): LogQuery {
  const { entry, admin, ...text } = filters;
  const query: LogQuery = admin === "include" ? { admin: "include" } : {};
  for (const [name, value] of Object.entries(text) as [
    Exclude<keyof LogFilters, "entry" | "admin">,
    string,
  ][]) {
    if (value !== "") query[name] = value;
  }
  const known = ENTRY_POINTS.find((candidate) => candidate === entry);
  if (known !== undefined) query.entry = known;
  return query;
}

/**
 * The calls matching the filters, newest first, a page at a time; with
 * **Live** on, new calls appear on top as they are recorded (a server-sent
 * event stream of the same filters). A call's detail opens in a drawer whose
 * address is shareable (`?record=<request id>`).
 */
export function CallsView(props: { filters: LogFilters; record: string | null }) {
  const { logs, api } = useApp();
  const { filters, record } = props;
  const query = useMemo(() => queryOf(filters), [filters]);
  const list = usePagedList(async (cursor, signal) => {
    const asked = await withCallerId(api, query, signal);
    const page = await logs.list({ ...asked, cursor, limit: pageSize() }, signal);
    return { items: page.records, nextCursor: page.cursor };
  }, []);
  const [live, setLive] = useState(false);
  // True once the tail's stream is open: from then on every new call shows.
  const [following, setFollowing] = useState(false);
  const [fresh, setFresh] = useState<CallRecord[]>([]);
  const [tailError, setTailError] = useState<Error | null>(null);

  useEffect(() => {
    if (!live) return;
    const controller = new AbortController();
    setTailError(null);
    withCallerId(api, query, controller.signal)
      .then((asked) =>
        logs.tail(
          asked,
          (next) => setFresh((shown) => [next, ...shown].slice(0, LIVE_KEPT)),
          controller.signal,
          () => setFollowing(true),
        ),
      )
      .then(
        () => {
          if (!controller.signal.aborted) setLive(false);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setTailError(error instanceof Error ? error : new Error(String(error)));
          setLive(false);
        },
      );
    return () => {
      controller.abort();
      setFollowing(false);
    };
  }, [live, logs, api, query]);

  const seen = new Set<string>();
  const records = [...fresh, ...list.items].filter((item) => {
    if (seen.has(item.requestId)) return false;
    seen.add(item.requestId);
    return true;
  });
  const linkOf = (item: CallRecord) =>
    hrefOf({ page: "logs", view: "calls", filters, record: item.requestId });
  const close = () => navigate(hrefOf({ page: "logs", view: "calls", filters, record: null }));

  return (
    <>
      <div class="action-bar logs-actions">
        <button
          type="button"
          class={live ? "btn btn-small btn-primary" : "btn btn-small"}
          aria-pressed={live}
          onClick={() => setLive((on) => !on)}
        >
          {live ? "Stop live tail" : "Live tail"}
        </button>
        <button
          type="button"
          class="btn btn-small"
          onClick={() => {
            setFresh([]);
            list.first.reload();
          }}
        >
          Refresh
        </button>
        <span class="muted" role="status" aria-live="polite">
          {live
            ? following
              ? "Following new calls as they are recorded."
              : "Starting the live tail…"
            : ""}
        </span>
      </div>
      {tailError ? <ErrorNotice error={tailError} compact /> : null}
      <LoadView loaded={list.first} label="Loading calls…">
        {() =>
          records.length === 0 ? (
            <Empty
              title={Object.keys(query).length > 0 ? "No calls match" : "No calls recorded yet"}
            >
              Calls to procedures, HTTP actions, cron jobs and queues appear here; the admin API's
              own calls with "Include admin calls".
            </Empty>
          ) : (
            <>
              <CallTable records={records} hrefOf={linkOf} />
              <LoadMore list={list} label="Load older calls" />
            </>
          )
        }
      </LoadView>
      {record !== null ? (
        <RecordDrawer
          key={record}
          requestId={record}
          known={records.find((item) => item.requestId === record)}
          onClose={close}
        />
      ) : null}
    </>
  );
}
