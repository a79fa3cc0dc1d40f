import { AUDIT_ACTIONS } from "@svc/auth/admin-contract";
import { useApp } from "../../app-context.ts";
import { DelayedFilter } from "../../components/delayed-filter.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { AuditList } from "./audit-list.tsx";

const PAGE_SIZE = 50;
/**
 * The admin audit trail: who did what to whom, when; filtered by target (an
 * id, or a user's email) and by one of the actions the server records.
 */
export function AuditPage(props: { target: string; action: string }) {
  const { capabilities } = useApp();
  const { target, action } = props;
  const setTarget = (value: string) =>
    navigate(hrefOf({ page: "audit", target: value, action }), { replace: true });
  const setAction = (value: string) =>
    navigate(hrefOf({ page: "audit", target, action: value }), { replace: true });
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title">Audit</h1>
          <p class="page-subtitle">
            Every admin action, newest first, with the operator who did it.
          </p>
        </div>
      </header>
      <search class="filters">
        <DelayedFilter
          grow
          label="Target"
          value={target}
          placeholder="User email, user ID or other target ID"
          onChange={setTarget}
        />
        <label class="field">
          <span class="field-label">Action</span>
          <select
            class="input"
            value={action}
            onChange={(event) => setAction(event.currentTarget.value)}
          >
            <option value="">Any action</option>
            {capabilities.auditActions.map((known) => (
              <option key={known} value={known}>
                {known}
              </option>
            ))}
          </select>
        </label>
        {target !== "" || action !== "" ? (
          <button
            type="button"
            class="btn btn-small filters-clear"
            onClick={() =>
              navigate(hrefOf({ page: "audit", target: "", action: "" }), { replace: true })
            }
          >
            Clear
          </button>
        ) : null}
      </search>
      <AuditResults key={`${target}\n${action}`} target={target} action={action} />
    </div>
  );
}

function AuditResults(props: { target: string; action: string }) {
  const { api } = useApp();
  const list = usePagedList(async (cursor, signal) => {
    const action = AUDIT_ACTIONS.find((known) => known === props.action);
    const query = { target: props.target, action, limit: PAGE_SIZE, cursor };
    const page = await api.listAudit({ query, signal });
    return { items: page.entries, nextCursor: page.nextCursor };
  }, []);
  return (
    <LoadView loaded={list.first} label="Loading the audit trail…">
      {() =>
        list.items.length === 0 ? (
          <Empty title={props.target || props.action ? "No entries match" : "No admin actions yet"}>
            Actions taken here or through the admin API appear in this trail.
          </Empty>
        ) : (
          <div class="card card-flush">
            <AuditList entries={list.items} />
            <LoadMore list={list} label="Load older entries" />
          </div>
        )
      }
    </LoadView>
  );
}
