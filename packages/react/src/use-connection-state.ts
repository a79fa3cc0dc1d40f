import type { ConnectionStatus } from "@svc/client";
import { useSyncExternalStore } from "react";
import { useSvcClient } from "./context.ts";

const CLOSED: ConnectionStatus = Object.freeze({ state: "closed", sockets: 0, attempt: 0 });
const serverSnapshot = () => CLOSED;

/**
 * The live connection's state over every shard the page watches:
 * `connecting`, `open`, `reconnecting` (with the retry `attempt`) or `closed`
 * (nothing watched). Reconnecting sockets resubscribe by themselves; show it
 * so people know their view may be behind.
 *
 * @example
 * ```tsx
 * const { state } = useConnectionState();
 * return state === "reconnecting" ? <p role="status">Reconnecting…</p> : null;
 * ```
 */
export function useConnectionState(): ConnectionStatus {
  const { connection } = useSvcClient();
  return useSyncExternalStore(connection.subscribe, connection.getSnapshot, serverSnapshot);
}
