import { useRef, useState } from "preact/hooks";
import type { ApiKey } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { ApiKeySecret } from "./api-key-secret.tsx";
import { type ApiKeyOwner, CreateApiKeyDialog } from "./create-api-key-dialog.tsx";

function stateOf(key: ApiKey): "revoked" | "expired" | "active" {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now()) return "expired";
  return "active";
}

/**
 * The API keys of a user (in the user drawer) or an organization (on its
 * page): each key's name, visible prefix, scopes and dates, a revoke button
 * while it is in force, and "New API key", whose answer shows the key once.
 * Revoked and expired keys stay listed, marked, as the audit trail mentions
 * them.
 */
export function ApiKeysSection(props: { owner: ApiKeyOwner; ownerLabel: string }) {
  const { api } = useApp();
  const notify = useToast();
  const { owner } = props;
  const query =
    "userId" in owner
      ? { ownerUserId: owner.userId }
      : { ownerOrganizationId: owner.organizationId };
  const keys = useLoad(
    (signal) => api.listApiKeys({ query, signal }),
    ["userId" in owner ? owner.userId : owner.organizationId],
  );
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ apiKey: ApiKey; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Section
      title="API keys"
      count={keys.data?.apiKeys.length}
      headingRef={heading}
      actions={
        <button type="button" class="btn btn-small" onClick={() => setCreating(true)}>
          New API key
        </button>
      }
    >
      <LoadView loaded={keys} label="Loading API keys…">
        {({ apiKeys }) =>
          apiKeys.length === 0 ? (
            <Empty title="No API keys">
              A key lets a program call this app's REST, RPC and live queries as {props.ownerLabel},
              within its scopes.
            </Empty>
          ) : (
            <ul class="list">
              {apiKeys.map((key) => {
                const state = stateOf(key);
                return (
                  <li key={key.id} class="list-item">
                    <div class="list-main">
                      <div class="list-title">
                        {key.name} <code class="mono muted">{key.prefix}…</code>
                        {state === "active" ? null : <span class="badge">{state}</span>}
                      </div>
                      <div class="list-meta muted">
                        {key.scopes.join(" · ")} · created <Time iso={key.createdAt} /> · last used{" "}
                        <Time iso={key.lastUsedAt} empty="never" />
                        {key.expiresAt !== null ? (
                          <>
                            {" "}
                            · expires <Time iso={key.expiresAt} />
                          </>
                        ) : null}
                      </div>
                    </div>
                    {state === "active" ? (
                      <button
                        type="button"
                        class="btn btn-small"
                        onClick={() => setRevoking(key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )
        }
      </LoadView>
      {creating ? (
        <CreateApiKeyDialog
          owner={owner}
          ownerLabel={props.ownerLabel}
          onClose={() => setCreating(false)}
          onCreated={(answer) => {
            setCreating(false);
            setCreated(answer);
            keys.reload();
          }}
        />
      ) : null}
      {created !== null ? (
        <ApiKeySecret
          apiKey={created.apiKey}
          secret={created.key}
          onClose={() => setCreated(null)}
        />
      ) : null}
      {revoking !== null ? (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          confirmLabel="Revoke API key"
          danger
          onClose={() => setRevoking(null)}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.revokeApiKey({ params: { id: revoking.id } });
            notify("API key revoked");
            keys.reload();
          }}
        >
          Programs using <code class="mono">{revoking.prefix}…</code> get 401 from now on (within a
          second on every server).
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
