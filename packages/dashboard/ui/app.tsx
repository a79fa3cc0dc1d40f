import { useCallback, useMemo, useState } from "preact/hooks";
import { adminApi } from "./api/admin.ts";
import { createAdminClient } from "./api/client.ts";
import { logsApi } from "./api/logs.ts";
import type { Capabilities } from "./api/types.ts";
import { AppContext, type AppServices } from "./app-context.ts";
import { ErrorNotice, Loading } from "./components/states.tsx";
import { ToastProvider } from "./components/toasts.tsx";
import { clearToken, readToken, saveToken } from "./lib/token-store.ts";
import { useLoad } from "./lib/use-load.ts";
import { SignIn } from "./screens/sign-in.tsx";
import { Shell } from "./shell.tsx";

interface Session {
  token: string;
  /** Known when the sign-in screen just fetched them; loaded again after a reload. */
  capabilities: Capabilities | null;
}

/**
 * The whole dashboard: sign-in until a token is accepted, then the shell.
 * The token stays in this tab's sessionStorage (see `token-store.ts`); a 401
 * from any call forgets it and comes back here saying why.
 */
export function App() {
  const [session, setSession] = useState<Session | null>(() => {
    const token = readToken();
    return token === null ? null : { token, capabilities: null };
  });
  const [notice, setNotice] = useState<string | null>(null);

  const signIn = useCallback((token: string, capabilities: Capabilities) => {
    saveToken(token);
    setNotice(null);
    setSession({ token, capabilities });
  }, []);
  const signOut = useCallback(() => {
    clearToken();
    setSession(null);
  }, []);
  const refused = useCallback(() => {
    clearToken();
    setSession(null);
    setNotice("The server no longer accepts this admin token. Sign in again.");
  }, []);

  return (
    <ToastProvider>
      {session === null ? (
        <SignIn notice={notice} onSignedIn={signIn} />
      ) : (
        <SignedIn key={session.token} session={session} onSignOut={signOut} onRefused={refused} />
      )}
    </ToastProvider>
  );
}

function SignedIn(props: { session: Session; onSignOut: () => void; onRefused: () => void }) {
  const { token, capabilities: known } = props.session;
  const { onSignOut, onRefused } = props;
  const client = useMemo(
    () => createAdminClient({ token, onUnauthenticated: onRefused }),
    [token, onRefused],
  );
  const api = useMemo(() => adminApi(client), [client]);
  const logs = useMemo(() => logsApi(client), [client]);
  const transport = client.send;
  const capabilities = useLoad<Capabilities>(
    (signal) => (known ? Promise.resolve(known) : api.capabilities({ signal })),
    [api, known],
  );
  const services = useMemo<AppServices | null>(
    () =>
      capabilities.data
        ? { api, logs, transport, capabilities: capabilities.data, signOut: onSignOut }
        : null,
    [api, logs, transport, capabilities.data, onSignOut],
  );
  if (services === null) {
    return (
      <main class="center-page">
        {capabilities.error ? (
          <ErrorNotice error={capabilities.error} onRetry={capabilities.reload} />
        ) : (
          <Loading label="Opening the dashboard…" />
        )}
      </main>
    );
  }
  return (
    <AppContext.Provider value={services}>
      <Shell />
    </AppContext.Provider>
  );
}
