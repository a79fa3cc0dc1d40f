import type { Overview } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { Link, navigate } from "../../lib/navigation.tsx";
import {
  DEFAULT_USER_FILTERS,
  hrefOf,
  OVERVIEW_DAYS,
  type OverviewDays,
  userHref,
} from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { AppHealth } from "./app-health.tsx";
import { SignUpsChart } from "./sign-ups-chart.tsx";
import { Stat } from "./stat.tsx";

/**
 * The overview: totals, the app's health over the last hour (from the call
 * records), active users and sign-ups per day (one `GET overview`, indexed
 * queries in one D1 batch). The window of the
 * sign-ups chart lives in the URL (`?days=`), so a reload keeps it.
 */
export function OverviewPage(props: { days: OverviewDays }) {
  const { api } = useApp();
  const overview = useLoad<Overview>(
    (signal) => api.overview({ query: { days: props.days }, signal }),
    [props.days],
  );
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title">Overview</h1>
          <p class="page-subtitle">
            {overview.data ? (
              <>
                Counted <Time iso={overview.data.generatedAt} />
              </>
            ) : null}
          </p>
        </div>
        <div class="overview-controls">
          <label class="field">
            <span class="field-label">Sign-ups over</span>
            <select
              class="input"
              value={String(props.days)}
              onChange={(event) =>
                navigate(
                  hrefOf({
                    page: "overview",
                    days: Number(event.currentTarget.value) as OverviewDays,
                  }),
                  { replace: true },
                )
              }
            >
              {OVERVIEW_DAYS.map((days) => (
                <option key={days} value={String(days)}>
                  the last {days} days
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="btn btn-small"
            onClick={overview.reload}
            disabled={overview.loading}
          >
            Refresh
          </button>
        </div>
      </header>
      <LoadView loaded={overview} label="Counting users…">
        {(data) => <OverviewContent overview={data} days={props.days} />}
      </LoadView>
    </div>
  );
}

function OverviewContent(props: { overview: Overview; days: OverviewDays }) {
  const { totals, activeUsers, signUps } = props.overview;
  const verifiedShare =
    totals.users === 0 ? null : Math.round((totals.emailVerified / totals.users) * 100);
  return (
    <>
      <section class="overview-section" aria-labelledby="overview-totals">
        <h2 id="overview-totals" class="section-heading">
          Totals
        </h2>
        <dl class="stats">
          <Stat label="Users" value={totals.users} href={userHref(null)} />
          <Stat
            label="Email verified"
            value={totals.emailVerified}
            note={verifiedShare === null ? undefined : `${verifiedShare} % of users`}
          />
          {totals.banned !== null ? (
            <Stat
              label="Banned now"
              value={totals.banned}
              href={userHref(null, { ...DEFAULT_USER_FILTERS, banned: "true" })}
            />
          ) : null}
          {totals.organizations !== null ? (
            <Stat
              label="Organizations"
              value={totals.organizations}
              href={hrefOf({ page: "organizations", orgId: null, tab: "members" })}
            />
          ) : null}
        </dl>
      </section>
      <AppHealth />
      <section class="overview-section" aria-labelledby="overview-active">
        <h2 id="overview-active" class="section-heading">
          Active users
        </h2>
        <p class="section-hint">
          People whose session was used in the window, counted once each. A session records its use
          about once a day and is gone once it ends, so these are lower bounds.
        </p>
        <dl class="stats">
          <Stat label="Last 24 hours" value={activeUsers.last24Hours} />
          <Stat label="Last 7 days" value={activeUsers.last7Days} />
          <Stat label="Last 30 days" value={activeUsers.last30Days} />
        </dl>
      </section>
      <section class="overview-section" aria-labelledby="overview-sign-ups">
        <h2 id="overview-sign-ups" class="section-heading">
          Sign-ups per day
        </h2>
        <SignUpsChart days={signUps} window={props.days} />
        <p class="section-hint">
          Days are UTC. <Link href={userHref(null)}>See the newest users</Link>
        </p>
      </section>
    </>
  );
}
