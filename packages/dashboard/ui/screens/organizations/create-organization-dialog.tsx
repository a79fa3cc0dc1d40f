import { useState } from "preact/hooks";
import type { Organization, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import {
  ORGANIZATION_FIELDS,
  OrganizationFields,
  useOrganizationForm,
} from "./organization-fields.tsx";
import { OwnerPicker } from "./owner-picker.tsx";

const FIELDS = [...ORGANIZATION_FIELDS, "ownerId"];

/**
 * Creates an organization for an existing user, who becomes its first
 * owner (the server runs better-auth's own create, so the app's limits and
 * hooks apply). Fields are checked before sending; a taken slug shows at
 * the slug.
 */
export function CreateOrganizationDialog(props: {
  onClose: () => void;
  onCreated: (organization: Organization) => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const form = useOrganizationForm(null);
  const [owner, setOwner] = useState<User | null>(null);
  const checks = useFormChecks(
    { ...form.problems, ...(owner === null ? { ownerId: "Pick the owner." } : {}) },
    FIELDS,
  );
  const sent = useSubmit(async () => {
    if (checks.blocked() || owner === null) return;
    const { organization } = await api.createOrganization({
      body: {
        name: form.name.trim(),
        slug: form.slug.trim(),
        ownerId: owner.id,
        ...(form.logo.trim() === "" ? {} : { logo: form.logo.trim() }),
        ...(form.metadataValue === null ? {} : { metadata: form.metadataValue }),
      },
    });
    notify(`Created ${organization.name}`);
    props.onCreated(organization);
  });
  const problems = checks.problems(sent.error);

  return (
    <CheckedFormDialog
      title="New organization"
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Create organization"
      busyLabel="Creating…"
    >
      <OrganizationFields form={form} problems={problems} />
      <OwnerPicker owner={owner} onPick={setOwner} problem={problems.ownerId} />
    </CheckedFormDialog>
  );
}
