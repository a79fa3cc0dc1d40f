import { useId } from "preact/hooks";
import type { Impersonation, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { SecretField } from "../../components/secret-field.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";
import { absoluteTime, relativeTime } from "../../lib/format.ts";

/**
 * The token of a new impersonation session: the only secret the admin
 * surface ever returns, kept in this dialog's memory only and gone when it
 * closes. It says how to use it (the `Authorization: Bearer` header with the
 * bearer plugin, else the signed `Cookie` header) and when it expires, with
 * copy buttons; it opens on Copy. Escape and a click beside it do not
 * discard it: only Done or the close button do, so the operator cannot lose
 * it by reflex.
 */
export function ImpersonationToken(props: {
  user: User;
  impersonation: Impersonation;
  onClose: () => void;
}) {
  const { capabilities } = useApp();
  const { user, impersonation } = props;
  const tokenId = useId();
  const bearer = capabilities.plugins.includes("bearer");
  const header = bearer
    ? `Authorization: Bearer ${impersonation.token}`
    : `Cookie: ${impersonation.cookie}`;
  return (
    <ShownOnceDialog
      title={`Impersonating ${user.email}`}
      secretName="token"
      onClose={props.onClose}
    >
      <p>
        A session as {user.email} is open until{" "}
        <strong>{absoluteTime(impersonation.expiresAt)}</strong> (
        {relativeTime(impersonation.expiresAt)}). Its token is shown only this once: copy it before
        you close this dialog.
      </p>
      <SecretField id={tokenId} label="Session token" value={impersonation.token} />
      <div id={`${tokenId}-use`} class="token-use">
        <p>
          {bearer ? (
            <>
              Send it to the app's API in an <code>Authorization: Bearer …</code> header
            </>
          ) : (
            <>
              This app has no <code>bearer()</code> plugin: send the session as a{" "}
              <code>Cookie</code> header
            </>
          )}
          ; the app then answers as {user.email} until the session expires or is revoked.
        </p>
        <div class="token-row">
          <code class="token-header">{bearer ? "Authorization: Bearer …" : "Cookie: …"}</code>
          <CopyButton value={header} label="Copy header" />
        </div>
      </div>
      <p class="muted small">
        To end it early, revoke session <code class="mono">{impersonation.sessionId}</code> in the
        user's sessions.
      </p>
    </ShownOnceDialog>
  );
}
