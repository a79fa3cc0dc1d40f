import { useId } from "preact/hooks";
import type { ApiKey } from "../../api/types.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { SecretField } from "../../components/secret-field.tsx";
import { ShownOnceDialog } from "../../components/shown-once-dialog.tsx";

/**
 * A new API key, shown this once: the server keeps only its hash. Says how
 * to send it (`x-api-key`, or `Authorization: Bearer`), with copy buttons;
 * it opens on Copy, and only Done or the close button discard it.
 */
export function ApiKeySecret(props: { apiKey: ApiKey; secret: string; onClose: () => void }) {
  const id = useId();
  return (
    <ShownOnceDialog
      title={`API key ${props.apiKey.name}`}
      secretName="key"
      onClose={props.onClose}
    >
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
    </ShownOnceDialog>
  );
}
