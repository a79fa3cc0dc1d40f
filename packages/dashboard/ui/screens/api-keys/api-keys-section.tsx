import { useRef, useState } from "preact/hooks";
import type { ApiKey } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf, userHref } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ApiKeySecret } from "./api-key-secret.tsx";
import { type ApiKeyOwner, CreateApiKeyDialog } from "./create-api-key-dialog.tsx";

function stateOf(key: ApiKey): "revoked" | "expired" | "active" {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now()) return "expired";
  return "active";
}

/** Whose key it is, linked to that user or organization (on the page listing every key). */
function OwnerLink(props: { apiKey: ApiKey }) {
  const { ownerUserId, ownerOrganizationId } = props.apiKey;
  if (ownerUserId !== null) {
    return (
      <>
        user{" "}
        <Link class="owner-link" href={userHref(ownerUserId)}>
          {ownerUserId}
        </Link>{" "}
        ·{" "}
      </>
    );
  }
  if (ownerOrganizationId === null) return null;
  return (
    <>
      organization{" "}
      <Link
        class="owner-link"
        href={hrefOf({ page: "organizations", orgId: ownerOrganizationId, tab: "members" })}
      >
        {ownerOrganizationId}
      </Link>{" "}
      ·{" "}
    </>
  );
}

/**
 * The API keys of a user (in the user drawer), an organization (on its
 * page) or, with no owner, every key of the app (the API keys page, each
 * linked to its owner): each key's name, visible prefix, scopes and dates,
 * a revoke button while it is in force, and, for one owner, "New API key",
 * whose answer shows the key once. Revoked and expired keys stay listed,
 * marked, as the audit trail mentions them.
 */
export function ApiKeysSection(props: { owner: ApiKeyOwner | null; ownerLabel: string }) {
  const { api } = useApp();
  const notify = useToast();
  const { owner } = props;
  const query =
    owner === null
      ? {}
      : "userId" in owner
        ? { ownerUserId: owner.userId }
        : { ownerOrganizationId: owner.organizationId };
  const keys = useLoad(
    (signal) => api.listApiKeys({ query, signal }),
    [owner === null ? null : "userId" in owner ? owner.userId : owner.organizationId],
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
        owner === null ? undefined : (
          <button type="button" class="btn btn-small" onClick={() => setCreating(true)}>
            New API key
          </button>
        )
      }
    >
      <LoadView loaded={keys} label="Loading API keys…">
        {({ apiKeys }) =>
          apiKeys.length === 0 ? (
            <Empty title="No API keys">
              {owner === null
                ? "Keys are made for a user (in their drawer) or an organization (on its page)."
                : `A key lets a program call this app's REST, RPC and live queries as ${props.ownerLabel}, within its scopes.`}
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
                        {owner === null ? <OwnerLink apiKey={key} /> : null}
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
      {creating && owner !== null ? (
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
