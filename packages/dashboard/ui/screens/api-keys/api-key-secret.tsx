import { useId, useState } from "preact/hooks";
import type { ApiKey } from "../../api/types.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { SecretField } from "../../components/secret-field.tsx";

/**
 * A new API key, shown this once: the server keeps only its hash. Says how
 * to send it (`x-api-key`, or `Authorization: Bearer`), with copy buttons;
 * it opens on Copy, and only Done or the close button discard it.
 */
export function ApiKeySecret(props: { apiKey: ApiKey; secret: string; onClose: () => void }) {
  const id = useId();
  const [kept, setKept] = useState(false);
  return (
    <Dialog
      title={`API key ${props.apiKey.name}`}
      onClose={props.onClose}
      onDismissAttempt={() => setKept(true)}
    >
      <div class="stack">
        <p>
          This is the only time the key is shown: the app stores only a hash of it. Copy it now and
          keep it where the program that uses it can read it.
        </p>
        <SecretField id={id} label="API key" value={props.secret} />
        <div id={`${id}-use`} class="token-use">
          <p>
            Send it in an <code>x-api-key</code> header (or <code>Authorization: Bearer …</code>) to
            the app's REST and RPC endpoints and live-query sockets. Scopes:{" "}
            {props.apiKey.scopes.join(", ")}.
          </p>
          <div class="token-row">
            <code class="token-header">x-api-key: {props.apiKey.prefix}…</code>
            <CopyButton value={`x-api-key: ${props.secret}`} label="Copy header" />
          </div>
        </div>
        {kept ? (
          <p class="notice notice-info" role="alert">
            The key is not shown again once this closes. Copy it, then press Done.
          </p>
        ) : null}
        <div class="actions">
          <button type="button" class="btn btn-primary" onClick={props.onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
