import { useState } from "preact/hooks";
import type { ErrorGroup } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { AdminCallsSwitch } from "../../components/admin-calls-switch.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { Link } from "../../lib/navigation.tsx";
import { callsHref } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { RecordDetail } from "./record-detail.tsx";

/**
 * Failed calls grouped by error code, function and message shape (ids and
 * numbers left out), most recently seen first: how often, since when, and
 * the newest occurrence as a sample.
 */
export function ErrorGroupsView() {
  const { logs } = useApp();
  const [includeAdmin, setIncludeAdmin] = useState(false);
  const loaded = useLoad((signal) => logs.groups("7d", includeAdmin, signal), [includeAdmin]);
  const [sample, setSample] = useState<ErrorGroup | null>(null);
  return (
    <>
      <div class="action-bar">
        <AdminCallsSwitch checked={includeAdmin} onChange={setIncludeAdmin} />
      </div>
      <LoadView loaded={loaded} label="Loading error groups…">
        {({ groups }) =>
          groups.length === 0 ? (
            <Empty title="No errors in the last 7 days">Failed calls are grouped here.</Empty>
          ) : (
            <RowsTable
              columns={["Error", "Function", "Count", "First seen", "Last seen", "Sample"]}
              class="groups-table"
            >
              {groups.map((group) => (
                <tr key={`${group.code}\n${group.function}\n${group.shape}`}>
                  <td data-label="Error" class="cell-wrap">
                    <span class="badge badge-danger">{group.code}</span>{" "}
                    <span class="group-shape">{group.shape}</span>
                  </td>
                  <td data-label="Function" class="cell-wrap">
                    <Link
                      class="mono"
                      href={callsHref({ function: group.function, status: group.code })}
                    >
                      <NameText text={group.function} />
                    </Link>
                  </td>
                  <td data-label="Count">{group.count.toLocaleString("en")}</td>
                  <td data-label="First seen">
                    <Time iso={group.firstSeen} />
                  </td>
                  <td data-label="Last seen">
                    <Time iso={group.lastSeen} />
                  </td>
                  <td data-label="Sample">
                    <button type="button" class="btn btn-small" onClick={() => setSample(group)}>
                      Show sample
                    </button>
                  </td>
                </tr>
              ))}
            </RowsTable>
          )
        }
      </LoadView>
      {sample !== null ? (
        <Dialog variant="drawer" title={`Sample of ${sample.code}`} onClose={() => setSample(null)}>
          <RecordDetail record={sample.sample} />
        </Dialog>
      ) : null}
    </>
  );
}
