/**
 * The dashboard's addresses. Every screen has a real URL under
 * `/_svc/dashboard/` (the server answers index.html for all of them), so
 * reload, back/forward and shared links work. Filters live in the query
 * string; ids are escaped; the admin token is never part of a URL.
 */

import type { MetricsWindow } from "../api/log-types.ts";
import type { UserSort } from "../api/types.ts";

/** Where the worker serves the dashboard (`DASHBOARD_PREFIX` in `@svc/server`). */
export const BASE_PATH = "/_svc/dashboard/";

/** Users-list filters as the URL carries them; `""` means "any". */
export interface UserFilters {
  search: string;
  role: string;
  banned: "" | "true" | "false";
  sort: UserSort;
  order: "asc" | "desc";
}

/** The default users-list view: newest first, nothing filtered. */
export const DEFAULT_USER_FILTERS: UserFilters = {
  search: "",
  role: "",
  banned: "",
  sort: "created",
  order: "desc",
};

/**
 * Where a cursor-paged list is: the page's number and the cursor that leads
 * to it (`""` on the first page), so reload and back keep the page.
 */
export interface PagePosition {
  number: number;
  cursor: string;
}

/** The first page of any list. */
export const FIRST_PAGE: PagePosition = { number: 1, cursor: "" };

/**
 * One screen of the dashboard and the state its URL holds. Fields marked
 * optional default to "nothing chosen" (first page, no search) in
 * {@link hrefOf}; {@link parseRoute} always fills them.
 */
export type Route =
  | { page: "users"; userId: string | null; filters: UserFilters; at?: PagePosition }
  | {
      page: "organizations";
      orgId: string | null;
      tab: "members" | "invitations";
      search?: string;
      at?: PagePosition;
    }
  | { page: "overview"; days: OverviewDays }
  | { page: "audit"; target: string; action: string }
  | { page: "api"; filter?: string }
  | {
      page: "data";
      shard: string | null;
      table: string | null;
      browse?: DataBrowse;
      /** The shard's SQL console instead of a table (`?view=sql`). */
      sql?: boolean;
    }
  | { page: "functions"; path: string | null; shard?: string; window?: MetricsWindow }
  | { page: "logs"; view: LogView; filters: LogFilters; record?: string | null }
  | { page: "apiKeys" }
  | { page: "migrations" }
  | { page: "backups" }
  | { page: "notFound"; path: string }
  | { page: "schedules"; filters: ScheduleFilters }
  /** One shard's files (`?shard=`; `""` until one is picked). */
  | { page: "files"; shard: string };

/** The Schedules page's shard and filters as the URL carries them; `""` means "any" (or no shard yet). */
export interface ScheduleFilters {
  /** `"1"`: every shard the registry knows (`?all=1`), rather than `shard`. */
  all: string;
  shard: string;
  state: string;
  function: string;
  user: string;
}

/** The Logs page's views: the calls, the error groups, the cron jobs and queues. */
export type LogView = "calls" | "errors" | "jobs";

/**
 * The call list's filters as the URL carries them; `""` means "any", except
 * `admin`: `""` leaves the admin API's own calls out, `include` shows them.
 */
export interface LogFilters {
  admin: string;
  function: string;
  entry: string;
  status: string;
  user: string;
  shard: string;
  since: string;
  q: string;
}

/** Every call, no filter. */
export const NO_LOG_FILTERS: LogFilters = {
  admin: "",
  function: "",
  entry: "",
  status: "",
  user: "",
  shard: "",
  since: "",
  q: "",
};

/**
 * The Logs page's calls filtered by these (every other filter off): where a
 * function, a user or an error leads.
 *
 * @example
 * ```ts
 * callsHref({ function: "messages:send", status: "failed" }); // "/_svc/dashboard/logs?function=…"
 * ```
 */
export function callsHref(filters: Partial<LogFilters> = {}): string {
  return hrefOf({ page: "logs", view: "calls", filters: { ...NO_LOG_FILTERS, ...filters } });
}

const LOG_FILTER_NAMES = Object.keys(NO_LOG_FILTERS) as (keyof LogFilters)[];

function logFiltersOf(params: URLSearchParams): LogFilters {
  const filters = { ...NO_LOG_FILTERS };
  for (const name of LOG_FILTER_NAMES) filters[name] = params.get(name) ?? "";
  return filters;
}

/** The metrics windows the Functions page offers. */
export const METRICS_WINDOWS: readonly MetricsWindow[] = ["1h", "24h", "7d"];

/** The window the URL names (`{}` for none or an unknown one: the page shows the last hour). */
function windowOf(params: URLSearchParams): { window?: MetricsWindow } {
  const window = METRICS_WINDOWS.find((known) => known === params.get("window"));
  return window === undefined ? {} : { window };
}

/**
 * A browse of the data studio as its URL carries it: the API's own query
 * values (`eq`, `gte`, `lte` and `filter` are JSON text), `""` for unset.
 * `as` is whom to view as: `""` (the operator), `anonymous`, `service`, or a
 * user's id or email. `search` holds words for the table's search index
 * (then the rows come by relevance, without an index range or order).
 */
export interface DataBrowse {
  index: string;
  eq: string;
  gte: string;
  lte: string;
  order: "" | "asc" | "desc";
  filter: string;
  search: string;
  as: string;
}

/** A table browsed as the operator, by creation time, oldest first, nothing filtered. */
export const DEFAULT_BROWSE: DataBrowse = {
  index: "",
  eq: "",
  gte: "",
  lte: "",
  order: "",
  filter: "",
  search: "",
  as: "",
};

function browseOf(params: URLSearchParams): DataBrowse {
  const order = params.get("order");
  return {
    index: params.get("index") ?? "",
    eq: params.get("eq") ?? "",
    gte: params.get("gte") ?? "",
    lte: params.get("lte") ?? "",
    order: order === "asc" || order === "desc" ? order : "",
    filter: params.get("filter") ?? "",
    search: params.get("search") ?? "",
    as: params.get("as") ?? "",
  };
}

/** The windows the overview's sign-ups chart offers, in days; the server allows 1 to 90. */
export const OVERVIEW_DAYS = [7, 30, 90] as const;

/** One of {@link OVERVIEW_DAYS}. */
export type OverviewDays = (typeof OVERVIEW_DAYS)[number];

/** The overview's window when the URL names none (the issue's "last 30 days"). */
export const DEFAULT_OVERVIEW_DAYS: OverviewDays = 30;

function overviewDaysOf(params: URLSearchParams): OverviewDays {
  const days = Number(params.get("days"));
  return OVERVIEW_DAYS.find((known) => known === days) ?? DEFAULT_OVERVIEW_DAYS;
}

const SORTS: readonly UserSort[] = ["created", "email", "name", "lastSignIn", "lastActive"];

function filtersOf(params: URLSearchParams): UserFilters {
  const sort = params.get("sort") as UserSort | null;
  const banned = params.get("banned");
  return {
    search: params.get("search") ?? "",
    role: params.get("role") ?? "",
    banned: banned === "true" || banned === "false" ? banned : "",
    sort: sort !== null && SORTS.includes(sort) ? sort : DEFAULT_USER_FILTERS.sort,
    order: params.get("order") === "asc" ? "asc" : "desc",
  };
}

function positionOf(params: URLSearchParams): PagePosition {
  const number = Number.parseInt(params.get("page") ?? "", 10);
  const cursor = params.get("cursor") ?? "";
  return Number.isSafeInteger(number) && number > 1 && cursor !== ""
    ? { number, cursor }
    : FIRST_PAGE;
}

function positionParams(at: PagePosition | undefined): Record<string, string> {
  return at === undefined || at.number <= 1 ? {} : { page: String(at.number), cursor: at.cursor };
}

function segmentsOf(pathname: string): string[] {
  const rest = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) : "";
  return rest
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** The route a location names: the users list at the root, "not found" for an unknown page. */
export function parseRoute(pathname: string, search: string): Route {
  const [page, id, sub] = segmentsOf(pathname);
  const params = new URLSearchParams(search);
  switch (page) {
    case "organizations":
      return id === undefined
        ? {
            page: "organizations",
            orgId: null,
            tab: "members",
            search: params.get("search") ?? "",
            at: positionOf(params),
          }
        : {
            page: "organizations",
            orgId: id,
            tab: sub === "invitations" ? "invitations" : "members",
          };
    case "overview":
      return { page: "overview", days: overviewDaysOf(params) };
    case "audit":
      return {
        page: "audit",
        target: params.get("target") ?? "",
        action: params.get("action") ?? "",
      };
    case "api":
      return { page: "api", filter: params.get("filter") ?? "" };
    case "schedules":
      return {
        page: "schedules",
        filters: {
          all: params.get("all") === "1" ? "1" : "",
          shard: params.get("shard") ?? "",
          state: params.get("state") ?? "",
          function: params.get("function") ?? "",
          user: params.get("user") ?? "",
        },
      };
    case "files":
      return { page: "files", shard: params.get("shard") ?? "" };
    case "data":
      return {
        page: "data",
        shard: id ?? null,
        table: id === undefined ? null : (sub ?? null),
        browse: browseOf(params),
        ...(id !== undefined && sub === undefined && params.get("view") === "sql"
          ? { sql: true }
          : {}),
      };
    case "functions":
      return {
        page: "functions",
        path: params.get("path"),
        shard: params.get("shard") ?? "",
        ...windowOf(params),
      };
    case "logs":
      return {
        page: "logs",
        view: id === "errors" || id === "jobs" ? id : "calls",
        filters: logFiltersOf(params),
        record: params.get("record"),
      };
    case "api-keys":
      return { page: "apiKeys" };
    case "migrations":
    case "backups":
      return { page };
    case undefined:
    case "users":
      return {
        page: "users",
        userId: page === "users" ? (id ?? null) : null,
        filters: filtersOf(params),
        at: positionOf(params),
      };
    default:
      return { page: "notFound", path: pathname };
  }
}

function withQuery(path: string, entries: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(entries)) if (value !== "") params.set(name, value);
  const query = params.toString();
  return `${BASE_PATH}${path}${query === "" ? "" : `?${query}`}`;
}

/** The URL of a route; the inverse of {@link parseRoute}. */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case "users": {
      const { search, role, banned, sort, order } = route.filters;
      const path = route.userId === null ? "users" : `users/${encodeURIComponent(route.userId)}`;
      return withQuery(path, {
        search,
        role,
        banned,
        sort: sort === DEFAULT_USER_FILTERS.sort ? "" : sort,
        order: order === DEFAULT_USER_FILTERS.order ? "" : order,
        ...positionParams(route.at),
      });
    }
    case "organizations": {
      if (route.orgId === null) {
        return withQuery("organizations", {
          search: route.search ?? "",
          ...positionParams(route.at),
        });
      }
      const base = `organizations/${encodeURIComponent(route.orgId)}`;
      return `${BASE_PATH}${route.tab === "invitations" ? `${base}/invitations` : base}`;
    }
    case "overview":
      return withQuery("overview", {
        days: route.days === DEFAULT_OVERVIEW_DAYS ? "" : String(route.days),
      });
    case "audit":
      return withQuery("audit", { target: route.target, action: route.action });
    case "api":
      return withQuery("api", { filter: route.filter ?? "" });
    case "schedules":
      return withQuery("schedules", { ...route.filters });
    case "files":
      return withQuery("files", { shard: route.shard });
    case "data": {
      if (route.shard === null) return withQuery("data", {});
      const shard = `data/${encodeURIComponent(route.shard)}`;
      if (route.table === null) return withQuery(shard, route.sql === true ? { view: "sql" } : {});
      return withQuery(`${shard}/${encodeURIComponent(route.table)}`, { ...route.browse });
    }
    case "functions":
      return withQuery("functions", {
        path: route.path ?? "",
        shard: route.shard ?? "",
        window: route.window === undefined || route.window === "1h" ? "" : route.window,
      });
    case "logs":
      if (route.view !== "calls") return withQuery(`logs/${route.view}`, {});
      return withQuery("logs", { ...route.filters, record: route.record ?? "" });
    case "apiKeys":
      return withQuery("api-keys", {});
    case "migrations":
    case "backups":
      return withQuery(route.page, {});
    case "notFound":
      return route.path;
  }
}

/** The users list, optionally with one user's drawer open, at a page of the list. */
export function userHref(
  userId: string | null,
  filters: UserFilters = DEFAULT_USER_FILTERS,
  at: PagePosition = FIRST_PAGE,
): string {
  return hrefOf({ page: "users", userId, filters, at });
}

/**
 * One document on the Data page: its table in `shard`, filtered to its `_id`
 * (which the server reads by its key), so a field holding a `v.id(…)` leads there.
 *
 * @example documentHref("room-1", "messages", "messages_0a1b…") // …/data/room-1/messages?filter=…
 */
export function documentHref(shard: string, table: string, id: string): string {
  return hrefOf({
    page: "data",
    shard,
    table,
    browse: { ...DEFAULT_BROWSE, filter: JSON.stringify({ _id: id }) },
  });
}
