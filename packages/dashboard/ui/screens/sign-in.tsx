import { useState } from "preact/hooks";
import { adminApi } from "../api/admin.ts";
import { ApiError, createAdminClient } from "../api/client.ts";
import type { Capabilities } from "../api/types.ts";
import { ErrorNotice } from "../components/states.tsx";

/**
 * The admin-token form. The token is checked against the server (by asking
 * for the capabilities) before it is kept, so a typo says so here rather than
 * on the first screen.
 */
export function SignIn(props: {
  notice: string | null;
  onSignedIn: (token: string, capabilities: Capabilities) => void;
}) {
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const candidate = token.trim();
    if (candidate === "" || busy) return;
    setBusy(true);
    setError(null);
    try {
      const capabilities = await adminApi(createAdminClient({ token: candidate })).capabilities();
      props.onSignedIn(candidate, capabilities);
    } catch (thrown) {
      const refused = thrown instanceof ApiError && thrown.status === 401;
      setError(
        refused
          ? new Error("That admin token was not accepted. Check it and try again.")
          : thrown instanceof Error
            ? thrown
            : new Error(String(thrown)),
      );
      setBusy(false);
    }
  };

  return (
    <main class="center-page">
      <form class="card sign-in" onSubmit={submit} aria-labelledby="sign-in-title">
        <div class="brand brand-large">
          <span class="brand-mark" aria-hidden="true">
            svc
          </span>
          <span>Admin</span>
        </div>
        <h1 id="sign-in-title" class="sign-in-title">
          Sign in with the admin token
        </h1>
        <p class="muted">
          The token is the app's <code>SVC_ADMIN_TOKEN</code>. It stays in this browser tab only and
          is forgotten when you sign out or close the tab.
        </p>
        {props.notice && !error ? <p class="notice notice-info">{props.notice}</p> : null}
        <label class="field">
          <span class="field-label">Admin token</span>
          <input
            class="input"
            type="password"
            name="token"
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
            autocomplete="current-password"
            spellcheck={false}
            required
            autofocus
          />
        </label>
        {error ? <ErrorNotice error={error} compact /> : null}
        <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Checking…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
