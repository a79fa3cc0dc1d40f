import { useRef, useState } from "preact/hooks";
import type { Account } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Section } from "../../components/section.tsx";
import { Empty } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { OnlyMethodNote } from "./only-method-note.tsx";

/** "Email & password" for better-auth's credential provider, else the provider id ("github"). */
function providerLabel(providerId: string): string {
  return providerId === "credential" ? "Email & password" : providerId;
}

/**
 * Linked sign-in methods. The server refuses to unlink a user's only way in
 * (`onlyMethod`: one account and no passkey), so that one says why instead
 * of offering Unlink.
 */
export function UserAccounts(props: {
  userId: string;
  accounts: Account[];
  onlyMethod: boolean;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const [unlinking, setUnlinking] = useState<Account | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Section title="Sign-in methods" count={props.accounts.length} headingRef={heading}>
      {props.accounts.length === 0 ? (
        <Empty title="No linked sign-in methods" />
      ) : (
        <ul class="list">
          {props.accounts.map((account) => (
            <li key={account.id} class="list-item">
              <div class="list-main">
                <div class="list-title">{providerLabel(account.providerId)}</div>
                <div class="list-meta muted">
                  {account.providerId === "credential" ? null : (
                    <>
                      <span class="mono">{account.accountId}</span> ·{" "}
                    </>
                  )}
                  linked <Time iso={account.createdAt} />
                  {account.scope ? ` · scope ${account.scope}` : null}
                </div>
              </div>
              {props.onlyMethod ? (
                <OnlyMethodNote />
              ) : (
                <button
                  type="button"
                  class="btn btn-small"
                  onClick={() => setUnlinking(account)}
                  aria-label={`Unlink ${providerLabel(account.providerId)}`}
                >
                  Unlink
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {unlinking !== null ? (
        <ConfirmDialog
          title={`Unlink ${providerLabel(unlinking.providerId)}?`}
          confirmLabel="Unlink"
          danger
          onClose={() => setUnlinking(null)}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.unlinkAccount({ params: { id: props.userId, accountId: unlinking.id } });
            notify(`Unlinked ${providerLabel(unlinking.providerId)}`);
            props.onChanged();
          }}
        >
          The user can no longer sign in with {providerLabel(unlinking.providerId)}.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
