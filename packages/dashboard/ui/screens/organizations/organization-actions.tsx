import { useState } from "preact/hooks";
import type { Organization } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { EditOrganizationDialog } from "./edit-organization-dialog.tsx";

/**
 * Edit and Delete for one organization. Deleting asks for the slug to be
 * typed, since it takes every member and invitation with it.
 */
export function OrganizationActions(props: {
  organization: Organization;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const { organization } = props;
  const [open, setOpen] = useState<"edit" | "delete" | null>(null);
  const close = () => setOpen(null);
  const members = `${organization.memberCount} ${organization.memberCount === 1 ? "member" : "members"}`;
  return (
    <div class="action-bar">
      <button type="button" class="btn btn-small" onClick={() => setOpen("edit")}>
        Edit
      </button>
      <button
        type="button"
        class="btn btn-small btn-danger-ghost"
        onClick={() => setOpen("delete")}
      >
        Delete organization
      </button>
      {open === "edit" ? (
        <EditOrganizationDialog
          organization={organization}
          onClose={close}
          onSaved={props.onChanged}
        />
      ) : null}
      {open === "delete" ? (
        <ConfirmDialog
          title="Delete this organization?"
          confirmLabel="Delete organization"
          danger
          requireText={organization.slug}
          onClose={close}
          onConfirm={async () => {
            await api.deleteOrganization({ params: { id: organization.id } });
            notify(`Deleted ${organization.name}`);
            props.onDeleted();
          }}
        >
          This removes {organization.name}, its {members} (their accounts stay), its pending
          invitations and its teams. It cannot be undone.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
