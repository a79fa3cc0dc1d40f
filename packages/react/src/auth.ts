import type { SvcClient } from "@svc/client";
import { createContext, createElement, type ReactNode, useContext, useEffect, useRef } from "react";

/**
 * What svc needs from better-auth's React client (`createAuthClient` from
 * `better-auth/react`): its `useSession` hook. Typed structurally, so
 * `@svc/react` does not depend on better-auth.
 */
export interface BetterAuthReactClient {
  useSession(): {
    data: { session: { id: string }; user: { id: string } } | null;
    isPending: boolean;
  };
}

/** The signed-in state as {@link useSvcAuth} answers it. */
export interface SvcAuthState {
  /** The session is still being read (first load). */
  isLoading: boolean;
  isAuthenticated: boolean;
  /** better-auth's session and user, or `null`. */
  session: ReturnType<BetterAuthReactClient["useSession"]>["data"];
}

const AuthContext = createContext<SvcAuthState | null>(null);

/**
 * @internal Reads better-auth's session and re-runs every live query when it
 * changes (sign-in, sign-out, another account), so no component keeps rows
 * it saw under the old identity. The first session read changes nothing:
 * sockets opened before it already carried the same cookie.
 */
export function AuthBridge(props: {
  client: SvcClient;
  authClient: BetterAuthReactClient;
  children?: ReactNode;
}): ReactNode {
  const { data, isPending } = props.authClient.useSession();
  const sessionId = isPending ? undefined : (data?.session.id ?? null);
  const seen = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (sessionId === undefined) return;
    if (seen.current !== undefined && seen.current !== sessionId) props.client.reauthenticate();
    seen.current = sessionId;
  }, [sessionId, props.client]);
  const state: SvcAuthState = {
    isLoading: isPending,
    isAuthenticated: !isPending && data !== null,
    session: isPending ? null : data,
  };
  return createElement(AuthContext.Provider, { value: state }, props.children);
}

/**
 * Whether someone is signed in, from better-auth's session (needs
 * `<SvcProvider authClient={…}>`).
 *
 * @example
 * ```tsx
 * const { isLoading, isAuthenticated, session } = useSvcAuth();
 * if (!isLoading && !isAuthenticated) return <SignIn />;
 * ```
 */
export function useSvcAuth(): SvcAuthState {
  const state = useContext(AuthContext);
  if (state === null) {
    throw new Error("svc: useSvcAuth needs <SvcProvider client={…} authClient={…}> above it.");
  }
  return state;
}

/**
 * Renders its children only while someone is signed in.
 *
 * @example
 * ```tsx
 * <Authenticated><Notes /></Authenticated>
 * ```
 */
export function Authenticated({ children }: { children?: ReactNode }): ReactNode {
  const { isLoading, isAuthenticated } = useSvcAuth();
  return !isLoading && isAuthenticated ? children : null;
}

/**
 * Renders its children only while nobody is signed in (after the session was read).
 *
 * @example
 * ```tsx
 * <Unauthenticated><SignInForm /></Unauthenticated>
 * ```
 */
export function Unauthenticated({ children }: { children?: ReactNode }): ReactNode {
  const { isLoading, isAuthenticated } = useSvcAuth();
  return !isLoading && !isAuthenticated ? children : null;
}

/**
 * Renders its children while the session is still being read.
 *
 * @example
 * ```tsx
 * <AuthLoading><p>Loading…</p></AuthLoading>
 * ```
 */
export function AuthLoading({ children }: { children?: ReactNode }): ReactNode {
  return useSvcAuth().isLoading ? children : null;
}
