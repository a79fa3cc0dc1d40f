import { useEffect } from "preact/hooks";
import { useApp } from "./app-context.ts";
import { lazyComponent } from "./components/lazy.tsx";
import { Link, useRoute } from "./lib/navigation.tsx";
import { BASE_PATH, FIRST_PAGE, type Route } from "./lib/routes.ts";
import { NotFoundPage } from "./screens/not-found/not-found-page.tsx";
import { UsersPage } from "./screens/users/users-page.tsx";

// Users is where sign-in lands, so it is in app.js; the other screens are
// chunks fetched the first time they are opened.
const OverviewPage = lazyComponent(() =>
  import("./screens/overview/overview-page.tsx").then((module) => module.OverviewPage),
);
const OrganizationsPage = lazyComponent(() =>
  import("./screens/organizations/organizations-page.tsx").then(
    (module) => module.OrganizationsPage,
  ),
);
const AuditPage = lazyComponent(() =>
  import("./screens/audit/audit-page.tsx").then((module) => module.AuditPage),
);
const ApiPage = lazyComponent(() =>
  import("./screens/api/api-page.tsx").then((module) => module.ApiPage),
);
const LogsPage = lazyComponent(() =>
  import("./screens/logs/logs-page.tsx").then((module) => module.LogsPage),
);
const DataPage = lazyComponent(() =>
  import("./screens/data/data-page.tsx").then((module) => module.DataPage),
);
const ApiKeysPage = lazyComponent(() =>
  import("./screens/api-keys/api-keys-page.tsx").then((module) => module.ApiKeysPage),
);
const MigrationsPage = lazyComponent(() =>
  import("./screens/migrations/migrations-page.tsx").then((module) => module.MigrationsPage),
);
const BackupsPage = lazyComponent(() =>
  import("./screens/backups/backups-page.tsx").then((module) => module.BackupsPage),
);
const SchedulesPage = lazyComponent(() =>
  import("./screens/schedules/schedules-page.tsx").then((module) => module.SchedulesPage),
);
const FilesPage = lazyComponent(() =>
  import("./screens/files/files-page.tsx").then((module) => module.FilesPage),
);
const FunctionsPage = lazyComponent(() =>
  import("./screens/functions/functions-page.tsx").then((module) => module.FunctionsPage),
);

const NAV: readonly { page: Route["page"]; label: string; href: string }[] = [
  { page: "overview", label: "Overview", href: `${BASE_PATH}overview` },
  { page: "users", label: "Users", href: `${BASE_PATH}users` },
  { page: "organizations", label: "Organizations", href: `${BASE_PATH}organizations` },
  { page: "apiKeys", label: "API keys", href: `${BASE_PATH}api-keys` },
  { page: "data", label: "Data", href: `${BASE_PATH}data` },
  { page: "functions", label: "Functions", href: `${BASE_PATH}functions` },
  { page: "migrations", label: "Migrations", href: `${BASE_PATH}migrations` },
  { page: "backups", label: "Backups", href: `${BASE_PATH}backups` },
  { page: "schedules", label: "Schedules", href: `${BASE_PATH}schedules` },
  { page: "files", label: "Files", href: `${BASE_PATH}files` },
  { page: "audit", label: "Audit", href: `${BASE_PATH}audit` },
  { page: "logs", label: "Logs", href: `${BASE_PATH}logs` },
  { page: "api", label: "API", href: `${BASE_PATH}api` },
];

const TITLES: Record<Route["page"], string> = {
  overview: "Overview",
  users: "Users",
  organizations: "Organizations",
  audit: "Audit",
  logs: "Logs",
  api: "API reference",
  data: "Data",
  functions: "Functions",
  apiKeys: "API keys",
  migrations: "Migrations",
  backups: "Backups",
  notFound: "Not found",
  schedules: "Schedules",
  files: "Files",
};

/** The signed-in frame: navigation, sign-out, and the screen the URL names. */
export function Shell() {
  const { signOut } = useApp();
  const route = useRoute();

  useEffect(() => {
    document.title = `${TITLES[route.page]} · svc admin`;
  }, [route.page]);

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar-inner">
          <Link class="brand" href={`${BASE_PATH}users`}>
            <span class="brand-mark" aria-hidden="true">
              svc
            </span>
            <span>Admin</span>
          </Link>
          <nav class="nav" aria-label="Sections">
            {NAV.map((item) => (
              <Link
                key={item.page}
                href={item.href}
                class={route.page === item.page ? "nav-link active" : "nav-link"}
                aria-current={route.page === item.page ? "page" : undefined}
              >
                {item.label}
              </Link>
            ))}
          </nav>
          <button type="button" class="btn btn-ghost btn-small sign-out" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        <Screen route={route} />
      </main>
    </div>
  );
}

function Screen(props: { route: Route }) {
  const route = props.route;
  switch (route.page) {
    case "users":
      return (
        <UsersPage userId={route.userId} filters={route.filters} at={route.at ?? FIRST_PAGE} />
      );
    case "organizations":
      return (
        <OrganizationsPage
          orgId={route.orgId}
          tab={route.tab}
          search={route.search ?? ""}
          at={route.at ?? FIRST_PAGE}
        />
      );
    case "overview":
      return <OverviewPage days={route.days} />;
    case "audit":
      return <AuditPage target={route.target} action={route.action} />;
    case "api":
      return <ApiPage filter={route.filter ?? ""} />;
    case "logs":
      return <LogsPage view={route.view} filters={route.filters} record={route.record ?? null} />;
    case "data":
      return (
        <DataPage
          shard={route.shard}
          table={route.table}
          browse={route.browse}
          sql={route.sql === true}
        />
      );
    case "schedules":
      return <SchedulesPage filters={route.filters} />;
    case "files":
      return <FilesPage shard={route.shard} />;
    case "functions":
      return (
        <FunctionsPage path={route.path} shard={route.shard ?? ""} window={route.window ?? "1h"} />
      );
    case "apiKeys":
      return <ApiKeysPage />;
    case "migrations":
      return <MigrationsPage />;
    case "backups":
      return <BackupsPage />;
    case "notFound":
      return <NotFoundPage path={route.path} />;
  }
}
