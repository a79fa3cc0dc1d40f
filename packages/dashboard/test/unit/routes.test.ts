import { describe, expect, it } from "vitest";
import {
  DEFAULT_BROWSE,
  DEFAULT_USER_FILTERS,
  FIRST_PAGE,
  hrefOf,
  parseRoute,
  type Route,
} from "../../ui/lib/routes.ts";

const ROUTES: { href: string; route: Route }[] = [
  {
    href: "/_svc/dashboard/users",
    route: { page: "users", userId: null, filters: DEFAULT_USER_FILTERS, at: FIRST_PAGE },
  },
  {
    href: "/_svc/dashboard/users?page=3&cursor=c2",
    route: {
      page: "users",
      userId: null,
      filters: DEFAULT_USER_FILTERS,
      at: { number: 3, cursor: "c2" },
    },
  },
  {
    href: "/_svc/dashboard/users/usr_1?search=ada&banned=true&sort=email&order=asc",
    route: {
      page: "users",
      userId: "usr_1",
      filters: { search: "ada", role: "", banned: "true", sort: "email", order: "asc" },
      at: FIRST_PAGE,
    },
  },
  {
    href: "/_svc/dashboard/users/a%2Fb",
    route: { page: "users", userId: "a/b", filters: DEFAULT_USER_FILTERS, at: FIRST_PAGE },
  },
  {
    href: "/_svc/dashboard/organizations",
    route: { page: "organizations", orgId: null, tab: "members", search: "", at: FIRST_PAGE },
  },
  {
    href: "/_svc/dashboard/organizations?search=acme&page=2&cursor=c1",
    route: {
      page: "organizations",
      orgId: null,
      tab: "members",
      search: "acme",
      at: { number: 2, cursor: "c1" },
    },
  },
  {
    href: "/_svc/dashboard/organizations/o1",
    route: { page: "organizations", orgId: "o1", tab: "members" },
  },
  {
    href: "/_svc/dashboard/organizations/o1/invitations",
    route: { page: "organizations", orgId: "o1", tab: "invitations" },
  },
  {
    href: "/_svc/dashboard/schedules",
    route: {
      page: "schedules",
      filters: { all: "", shard: "", state: "", function: "", user: "" },
    },
  },
  {
    href: "/_svc/dashboard/schedules?all=1&state=pending",
    route: {
      page: "schedules",
      filters: { all: "1", shard: "", state: "pending", function: "", user: "" },
    },
  },
  {
    href: "/_svc/dashboard/schedules?shard=room+1&state=failed&function=a%3Ab&user=u1",
    route: {
      page: "schedules",
      filters: { all: "", shard: "room 1", state: "failed", function: "a:b", user: "u1" },
    },
  },
  { href: "/_svc/dashboard/files", route: { page: "files", shard: "" } },
  { href: "/_svc/dashboard/files?shard=room+1", route: { page: "files", shard: "room 1" } },
  {
    href: "/_svc/dashboard/audit?target=usr_1&action=user.ban",
    route: { page: "audit", target: "usr_1", action: "user.ban" },
  },
  { href: "/_svc/dashboard/overview", route: { page: "overview", days: 30 } },
  { href: "/_svc/dashboard/overview?days=90", route: { page: "overview", days: 90 } },
  { href: "/_svc/dashboard/api", route: { page: "api", filter: "" } },
  { href: "/_svc/dashboard/api?filter=hello", route: { page: "api", filter: "hello" } },
  {
    href: "/_svc/dashboard/data",
    route: { page: "data", shard: null, table: null, browse: DEFAULT_BROWSE },
  },
  {
    href: "/_svc/dashboard/data/room%2F1",
    route: { page: "data", shard: "room/1", table: null, browse: DEFAULT_BROWSE },
  },
  { href: "/_svc/dashboard/api-keys", route: { page: "apiKeys" } },
  {
    href: "/_svc/dashboard/data/room%2F1?view=sql",
    route: { page: "data", shard: "room/1", table: null, browse: DEFAULT_BROWSE, sql: true },
  },
  {
    href: "/_svc/dashboard/data/s1/messages?index=by_channel&eq=%5B%22general%22%5D&order=desc&filter=%7B%22author%22%3A%22u1%22%7D&as=ann%40example.com",
    route: {
      page: "data",
      shard: "s1",
      table: "messages",
      browse: {
        ...DEFAULT_BROWSE,
        index: "by_channel",
        eq: '["general"]',
        order: "desc",
        filter: '{"author":"u1"}',
        as: "ann@example.com",
      },
    },
  },
  { href: "/_svc/dashboard/functions", route: { page: "functions", path: null, shard: "" } },
  {
    href: "/_svc/dashboard/functions?path=messages%3Asend&shard=s1",
    route: { page: "functions", path: "messages:send", shard: "s1" },
  },
];

describe("routes", () => {
  it.each(ROUTES)("$href parses and prints back", ({ href, route }) => {
    const url = new URL(href, "http://localhost");
    expect(parseRoute(url.pathname, url.search)).toEqual(route);
    expect(hrefOf(route)).toBe(href);
  });

  it("shows the users list at the root and says an unknown path is not found", () => {
    expect(parseRoute("/_svc/dashboard/", "")).toMatchObject({ page: "users", userId: null });
    const unknown = parseRoute("/_svc/dashboard/nope/x", "");
    expect(unknown).toEqual({ page: "notFound", path: "/_svc/dashboard/nope/x" });
    expect(hrefOf(unknown)).toBe("/_svc/dashboard/nope/x");
  });

  it("ignores filter values outside the allow-list", () => {
    const route = parseRoute("/_svc/dashboard/users", "?sort=password&banned=maybe&order=sideways");
    expect(route).toMatchObject({ filters: DEFAULT_USER_FILTERS });
  });

  it("keeps the overview's window to the offered choices", () => {
    expect(parseRoute("/_svc/dashboard/overview", "?days=45")).toEqual({
      page: "overview",
      days: 30,
    });
    expect(parseRoute("/_svc/dashboard/overview", "?days=7")).toEqual({
      page: "overview",
      days: 7,
    });
  });
});
