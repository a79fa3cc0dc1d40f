import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { changesOf, type FieldInput, inputOf } from "../../lib/profile-fields.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { ProfileFieldInput } from "./profile-field-input.tsx";

/**
 * Edits the user's profile: one input per field the server says may be
 * edited (`capabilities.userFields`, the app's own fields included), filled
 * from `profile`. Only changed fields are sent; each is checked first, and
 * the server's refusals (a taken email or username: 409) show at the field.
 */
export function EditProfileDialog(props: {
  user: User;
  profile: Readonly<Record<string, unknown>>;
  onClose: () => void;
  onDone: () => void;
}) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const fields = capabilities.userFields;
  const [inputs, setInputs] = useState<Record<string, FieldInput>>({});
  const { changes, problems: own } = changesOf(fields, props.profile, inputs);
  const checks = useFormChecks(
    own,
    fields.map((field) => field.name),
  );
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    if (Object.keys(changes).length > 0) {
      await api.updateUser({ params: { id: props.user.id }, body: changes });
      notify(`Saved the profile of ${props.user.email}`);
      props.onDone();
    }
    props.onClose();
  });
  const problems = checks.problems(sent.error);

  return (
    <CheckedFormDialog
      title="Edit profile"
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Save profile"
      busyLabel="Saving…"
    >
      {fields.map((field) => (
        <ProfileFieldInput
          key={field.name}
          field={field}
          value={inputs[field.name] ?? inputOf(field, props.profile[field.name])}
          onInput={(value) => setInputs((current) => ({ ...current, [field.name]: value }))}
          problem={problems[field.name]}
        />
      ))}
    </CheckedFormDialog>
  );
}
