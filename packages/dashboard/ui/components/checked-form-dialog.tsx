import type { ComponentChildren } from "preact";
import type { FormChecks } from "../lib/use-form-checks.ts";
import type { useSubmit } from "../lib/use-submit.ts";
import { Dialog } from "./dialog.tsx";
import { FormActions } from "./form-parts.tsx";

/**
 * A dialog holding one checked form: its fields, then the refusal (unless
 * every issue of it is shown at a field) and Cancel/submit. Every admin
 * dialog with a form had this frame written out; one component keeps their
 * focus, `noValidate` (our checks speak, not the browser's) and foot alike.
 *
 * @example
 * ```tsx
 * <CheckedFormDialog title="Set password" onClose={close} checks={checks} submit={sent}
 *   label="Set password" busyLabel="Saving…">
 *   <TextField label="New password" … />
 * </CheckedFormDialog>
 * ```
 */
export function CheckedFormDialog(props: {
  title: string;
  onClose: () => void;
  checks: FormChecks;
  submit: ReturnType<typeof useSubmit>;
  label: string;
  busyLabel: string;
  tone?: "primary" | "danger";
  disabled?: boolean;
  children: ComponentChildren;
}) {
  const { checks, submit } = props;
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form ref={checks.form} class="stack" onSubmit={submit.submit} noValidate>
        {props.children}
        <FormActions
          error={checks.footError(submit.error)}
          busy={submit.busy}
          onCancel={props.onClose}
          label={props.label}
          busyLabel={props.busyLabel}
          tone={props.tone}
          disabled={props.disabled}
        />
      </form>
    </Dialog>
  );
}
