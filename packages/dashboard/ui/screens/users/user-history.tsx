import { useApp } from "../../app-context.ts";
import { Section } from "../../components/section.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { AuditList } from "../audit/audit-list.tsx";

const RECENT = 10;

/** The last admin actions on this user; reloads after every change made in the drawer. */
export function UserHistory(props: { userId: string; revision: number }) {
  const { api } = useApp();
  const history = useLoad(
    (signal) => api.listAudit({ query: { target: props.userId, limit: RECENT }, signal }),
    [props.userId, props.revision],
  );
  return (
    <Section
      title="Recent admin history"
      actions={
        <Link
          class="btn btn-small btn-ghost"
          href={hrefOf({ page: "audit", target: props.userId, action: "" })}
        >
          Open in Audit
        </Link>
      }
    >
      <LoadView loaded={history} label="Loading history…">
        {(data) =>
          data.entries.length === 0 ? (
            <Empty title="No admin actions on this user yet" />
          ) : (
            <AuditList entries={data.entries} compact />
          )
        }
      </LoadView>
    </Section>
  );
}
