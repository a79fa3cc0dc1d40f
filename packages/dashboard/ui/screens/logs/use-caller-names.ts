import { useEffect, useRef, useState } from "preact/hooks";
import type { CallRecord } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import type { UserName } from "../../components/user-link.tsx";

/** Most ids one `GET users/names` takes (the route's own limit). */
const BATCH = 100;

/** The user a call's caller names: the user themselves, or the owner of the API key used. */
function callerUserId(record: CallRecord): string | null {
  const { caller } = record;
  if (caller.kind === "user") return caller.id;
  if (caller.kind === "apiKey") return caller.userId;
  return null;
}

/**
 * The names and emails of the users behind a list of calls, so the Logs list
 * shows who called by name: the ids not asked yet go in one batched
 * `GET users/names` (not one request per row); "Load older calls" and the
 * live tail ask only for ids new to the page. An id not answered (a
 * deleted user, a failed lookup) stays absent, and its row shows the id.
 *
 * @example const names = useCallerNames(records); names.get(record.caller.id)?.name
 */
export function useCallerNames(records: readonly CallRecord[]): ReadonlyMap<string, UserName> {
  const { api } = useApp();
  const [names, setNames] = useState<ReadonlyMap<string, UserName>>(() => new Map());
  const asked = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const unasked = new Set<string>();
  for (const record of records) {
    const id = callerUserId(record);
    if (id !== null && !asked.current.has(id)) unasked.add(id);
  }
  const ids = [...unasked].slice(0, BATCH).join(",");
  useEffect(() => {
    if (ids === "") return;
    const batch = ids.split(",");
    for (const id of batch) asked.current.add(id);
    api
      .listUserNames({ query: { ids } })
      .then(({ users }) => {
        if (!mounted.current) return;
        setNames((previous) => {
          const next = new Map(previous);
          for (const user of users) next.set(user.id, user);
          return next;
        });
      })
      .catch(() => {
        // Unnamed rows keep their ids; a later page may ask again.
        for (const id of batch) asked.current.delete(id);
      });
  }, [ids]);
  return names;
}
