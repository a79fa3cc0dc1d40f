import { Link } from "../../lib/navigation.tsx";
import { BASE_PATH } from "../../lib/routes.ts";

/**
 * What an address the dashboard does not know shows: that it is not a
 * page, and the way back, instead of silently showing another screen (a
 * mistyped or stale link would otherwise look like the users list).
 *
 * @example <NotFoundPage path="/_svc/dashboard/userz" />
 */
export function NotFoundPage(props: { path: string }) {
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Page not found
          </h1>
          <p class="page-subtitle">
            The dashboard has no page at <code class="mono">{props.path}</code>.
          </p>
        </div>
      </header>
      <p class="muted">Pick a page from the navigation, or:</p>
      <p>
        <Link class="btn" href={BASE_PATH}>
          Go to the users list
        </Link>
      </p>
    </div>
  );
}
