import { ApiError } from "../../api/client.ts";
import type { CallRecord } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { RecordDetail } from "./record-detail.tsx";

/**
 * One call's detail in a drawer over the list. A record the list already
 * holds shows at once; another (a shared link) is loaded by its request id,
 * and one that was pruned says so.
 */
export function RecordDrawer(props: {
  requestId: string;
  known: CallRecord | undefined;
  onClose: () => void;
}) {
  const { logs } = useApp();
  const { requestId, known } = props;
  const loaded = useLoad(
    async (signal) => known ?? (await logs.record(requestId, signal)).record,
    [requestId, known],
  );
  const missing = loaded.error instanceof ApiError && loaded.error.status === 404;
  return (
    <Dialog
      variant="drawer"
      title={loaded.data ? `Call ${loaded.data.route}` : "Call"}
      onClose={props.onClose}
    >
      {missing ? (
        <Empty title="This call is no longer stored">
          Records are kept for a limited time and size; this one was pruned.
        </Empty>
      ) : (
        <LoadView loaded={loaded} label="Loading the call…">
          {(record) => <RecordDetail record={record} />}
        </LoadView>
      )}
    </Dialog>
  );
}
