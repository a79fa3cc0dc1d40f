import type { SvcClient } from "@svc/client";
import { createContext, createElement, type ReactNode, useContext } from "react";
import { AuthBridge, type BetterAuthReactClient } from "./auth.ts";

/** @internal The client of the nearest {@link SvcProvider}. */
export const ClientContext = createContext<SvcClient | null>(null);

/** Props of {@link SvcProvider}. */
export interface SvcProviderProps {
  /** The app's client (`createClient({ url })`); create it once, outside components. */
  client: SvcClient;
  /**
   * better-auth's React client (`createAuthClient` from `better-auth/react`).
   * With it, every sign-in, sign-out or session switch re-runs every live
   * query under the new identity, and {@link useSvcAuth} works.
   */
  authClient?: BetterAuthReactClient;
  children?: ReactNode;
}

/**
 * Makes an svc client available to the hooks below it. Live queries share
 * one subscription per (query, arguments, shard) across the whole tree.
 *
 * @example
 * ```tsx
 * const client = createClient({ url: location.origin });
 * const authClient = createAuthClient();
 * createRoot(root).render(
 *   <SvcProvider client={client} authClient={authClient}><App /></SvcProvider>,
 * );
 * ```
 */
export function SvcProvider({ client, authClient, children }: SvcProviderProps): ReactNode {
  const inner =
    authClient === undefined
      ? children
      : createElement(AuthBridge, { client, authClient }, children);
  return createElement(ClientContext.Provider, { value: client }, inner);
}

/**
 * The client of the nearest {@link SvcProvider}, for calls outside the hooks
 * (`client.query` in an event handler, `client.stream`).
 *
 * @example
 * ```ts
 * const client = useSvcClient();
 * const onExport = async () => download(await client.query(api.notes.all, {}));
 * ```
 */
export function useSvcClient(): SvcClient {
  const client = useContext(ClientContext);
  if (client === null) {
    throw new Error("svc: this hook needs an <SvcProvider client={…}> above it in the tree.");
  }
  return client;
}
