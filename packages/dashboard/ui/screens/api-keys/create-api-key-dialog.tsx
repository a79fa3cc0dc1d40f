import { useState } from "preact/hooks";
import type { ApiKey } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { Field } from "../../components/form-parts.tsx";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";

/** Who a new key belongs to. */
export type ApiKeyOwner = { userId: string } | { organizationId: string };

const DAY = 24 * 60 * 60;
const LIFETIMES: readonly { label: string; seconds: number | null }[] = [
  { label: "Never", seconds: null },
  { label: "7 days", seconds: 7 * DAY },
  { label: "30 days", seconds: 30 * DAY },
  { label: "90 days", seconds: 90 * DAY },
  { label: "1 year", seconds: 365 * DAY },
];
const FIELDS = ["name", "scopes", "expiresInSeconds"];

/** Scopes as typed: one per line or separated by spaces or commas. */
const scopesOf = (text: string) => text.split(/[\s,]+/).filter((scope) => scope !== "");

/**
 * Creates an API key for a user or an organization: a name, its scopes
 * (checked by the server, whose issues show at the field) and how long it
 * lives. The answer's key goes to `onCreated`, to be shown once.
 */
export function CreateApiKeyDialog(props: {
  owner: ApiKeyOwner;
  ownerLabel: string;
  onClose: () => void;
  onCreated: (created: { apiKey: ApiKey; key: string }) => void;
}) {
  const { api } = useApp();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState("*.readonly");
  const [lifetime, setLifetime] = useState(0);
  const checks = useFormChecks(
    {
      ...(name.trim() === "" ? { name: "Give the key a name." } : {}),
      ...(scopesOf(scopes).length === 0 ? { scopes: "Give at least one scope." } : {}),
    },
    FIELDS,
  );
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const seconds = LIFETIMES[lifetime]?.seconds ?? null;
    const fields = {
      name: name.trim(),
      scopes: scopesOf(scopes),
      ...(seconds === null ? {} : { expiresInSeconds: seconds }),
    };
    const body =
      "userId" in props.owner
        ? { ownerUserId: props.owner.userId, ...fields }
        : { ownerOrganizationId: props.owner.organizationId, ...fields };
    props.onCreated(await api.createApiKey({ body }));
  });
  const problems = checks.problems(sent.error);
  return (
    <CheckedFormDialog
      title={`New API key for ${props.ownerLabel}`}
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Create API key"
      busyLabel="Creating…"
    >
      <Field label="Name" hint="Say what uses it, e.g. “CI deploys”." problem={problems.name}>
        {(control) => (
          <input
            {...control}
            class="input"
            name="name"
            value={name}
            maxLength={100}
            autofocus
            autocomplete="off"
            onInput={(event) => setName(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="Scopes"
        hint={
          <>
            One per line: <code>*</code> (everything), a namespace (<code>messages</code>) or a
            procedure (<code>messages:send</code>); add <code>.readonly</code> for queries only.
          </>
        }
        problem={problems.scopes}
      >
        {(control) => (
          <textarea
            {...control}
            class="input mono"
            name="scopes"
            rows={3}
            value={scopes}
            onInput={(event) => setScopes(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Expires" problem={problems.expiresInSeconds}>
        {(control) => (
          <select
            {...control}
            class="input"
            name="expiresInSeconds"
            value={String(lifetime)}
            onChange={(event) => setLifetime(Number(event.currentTarget.value))}
          >
            {LIFETIMES.map((option, index) => (
              <option key={option.label} value={String(index)}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </CheckedFormDialog>
  );
}
