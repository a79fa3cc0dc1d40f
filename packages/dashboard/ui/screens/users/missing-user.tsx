import { useApp } from "../../app-context.ts";
import { Empty, LoadView } from "../../components/states.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * What the drawer shows for a user id the server does not know (a link from
 * the audit trail, an old bookmark): "This user was deleted" when the trail
 * records the deletion, else that no user has this id; either way with a
 * link to everything the trail holds about the id.
 */
export function MissingUser(props: { userId: string }) {
  const { api } = useApp();
  const deletion = useLoad(
    (signal) =>
      api.listAudit({ query: { target: props.userId, action: "user.delete", limit: 1 }, signal }),
    [props.userId],
  );
  return (
    <LoadView loaded={deletion} label="Looking the user up…">
      {(data) => {
        const deleted = data.entries.find((entry) => entry.outcome === "ok");
        return (
          <Empty title={deleted ? "This user was deleted" : "No user has this ID"}>
            <p>
              {deleted ? (
                <>
                  Deleted by <strong>{deleted.operator}</strong>. Their sessions, sign-in methods
                  and memberships are gone; the audit trail keeps what was done to them.
                </>
              ) : (
                <>
                  <code class="mono">{props.userId}</code> matches no user.
                </>
              )}
            </p>
            <p>
              <Link href={hrefOf({ page: "audit", target: props.userId, action: "" })}>
                Open their history in Audit
              </Link>
            </p>
          </Empty>
        );
      }}
    </LoadView>
  );
}
