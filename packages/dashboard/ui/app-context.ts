import type { RouteTransport } from "@svc/server/routes/contract";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { AdminApi } from "./api/admin.ts";
import type { LogsApi } from "./api/logs.ts";
import type { Capabilities } from "./api/types.ts";

/** What every signed-in screen needs: the API, what it may offer, and sign-out. */
export interface AppServices {
  api: AdminApi;
  /** The call records and metrics (`/_svc/admin/logs*`). */
  logs: LogsApi;
  /** The admin API as a transport for clients derived from route declarations (the data studio's). */
  transport: RouteTransport;
  capabilities: Capabilities;
  signOut(): void;
}

/** Provided by the app shell once the token has been accepted. */
export const AppContext = createContext<AppServices | null>(null);

/** The signed-in services; only screens inside the shell call it. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (services === null) throw new Error("useApp() outside the signed-in shell");
  return services;
}
