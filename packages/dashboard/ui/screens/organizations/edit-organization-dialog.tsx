import type { Organization, OrganizationChanges } from "../../api/types.ts";
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

/** Only what the operator changed, with an emptied logo or metadata sent as `null` (cleared). */
function changesOf(
  organization: Organization,
  form: ReturnType<typeof useOrganizationForm>,
): OrganizationChanges {
  const changes: OrganizationChanges = {};
  if (form.name.trim() !== organization.name) changes.name = form.name.trim();
  if (form.slug.trim() !== organization.slug) changes.slug = form.slug.trim();
  const logo = form.logo.trim() === "" ? null : form.logo.trim();
  if (logo !== organization.logo) changes.logo = logo;
  if (JSON.stringify(form.metadataValue) !== JSON.stringify(organization.metadata)) {
    changes.metadata = form.metadataValue;
  }
  return changes;
}

/** Edits an organization's name, slug, logo and metadata; sends only what changed. */
export function EditOrganizationDialog(props: {
  organization: Organization;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const { organization } = props;
  const form = useOrganizationForm(organization);
  const checks = useFormChecks(form.problems, ORGANIZATION_FIELDS);
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const changes = changesOf(organization, form);
    if (Object.keys(changes).length > 0) {
      await api.updateOrganization({ params: { id: organization.id }, body: changes });
      notify(`Saved ${changes.name ?? organization.name}`);
      props.onSaved();
    }
    props.onClose();
  });
  const problems = checks.problems(sent.error);

  return (
    <CheckedFormDialog
      title="Edit organization"
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Save changes"
      busyLabel="Saving…"
    >
      <OrganizationFields form={form} problems={problems} />
    </CheckedFormDialog>
  );
}
