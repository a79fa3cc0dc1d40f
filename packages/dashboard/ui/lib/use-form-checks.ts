import { useRef, useState } from "preact/hooks";
import { type FieldProblems, footError, serverProblems } from "./form-checks.ts";

/** {@link useFormChecks}'s answer. */
export interface FormChecks {
  /** Put on the `<form>`, so focus can move to the first field in trouble. */
  form: { current: HTMLFormElement | null };
  /** What to show at each field: the server's issues, then the form's own problems once it was submitted. */
  problems(error: Error | null): FieldProblems;
  /** What to show at the foot of the form: the error unless its issues are all shown at fields. */
  footError(error: Error | null): Error | null;
  /** Called at submit: true when the form's own checks fail (then focus moves to the first field in trouble), so nothing is sent. */
  blocked(): boolean;
}

/**
 * Field-level checking for a dialog form: `own` holds the form's current
 * problems (see `form-checks.ts`); they show from the first submit on, then
 * update as the operator types. `fields` names the fields whose server
 * issues (`body.<field>`) are shown at the field instead of at the foot.
 */
export function useFormChecks(own: FieldProblems, fields: readonly string[]): FormChecks {
  const [tried, setTried] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  return {
    form,
    problems: (error) => ({ ...serverProblems(error, fields), ...(tried ? own : {}) }),
    footError: (error) => footError(error, fields),
    blocked() {
      setTried(true);
      if (Object.keys(own).length === 0) return false;
      requestAnimationFrame(() =>
        form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return true;
    },
  };
}
