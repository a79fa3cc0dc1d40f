import type { EditableUserField } from "../../api/types.ts";
import { Field } from "../../components/form-parts.tsx";
import { type FieldInput, labelOf } from "../../lib/profile-fields.ts";

const TEXT_TYPES: Record<string, "email" | "url"> = { email: "email", url: "url" };

/**
 * The input one editable user field calls for: a checkbox for a boolean, a
 * select for an enum, a number or date input, a textarea for JSON, else a
 * text (email, url) input; each with its problem.
 */
export function ProfileFieldInput(props: {
  field: EditableUserField;
  value: FieldInput;
  onInput: (value: FieldInput) => void;
  problem?: string | undefined;
}) {
  const { field, value, problem } = props;
  const label = (
    <>
      {labelOf(field.name)}
      {field.required || field.type === "boolean" ? null : <span class="muted"> (optional)</span>}
    </>
  );
  if (field.type === "boolean") {
    return (
      <label class="choice choice-check">
        <input
          type="checkbox"
          name={field.name}
          checked={value === true}
          onChange={(event) => props.onInput(event.currentTarget.checked)}
        />
        <span>{label}</span>
      </label>
    );
  }
  const text = typeof value === "string" ? value : "";
  const hint =
    field.type === "string[]" || field.type === "number[]"
      ? "Separate values with commas."
      : field.unique
        ? "No other user may have the same value."
        : undefined;
  const className = problem ? "input input-invalid" : "input";
  return (
    <Field label={label} hint={hint} problem={problem}>
      {(control) =>
        field.type === "enum" ? (
          <select
            {...control}
            class={className}
            name={field.name}
            value={text}
            onChange={(event) => props.onInput(event.currentTarget.value)}
          >
            {field.required ? null : <option value="">—</option>}
            {(field.options ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : field.type === "json" ? (
          <textarea
            {...control}
            class={`${className} input-code`}
            name={field.name}
            rows={4}
            value={text}
            onInput={(event) => props.onInput(event.currentTarget.value)}
            spellcheck={false}
          />
        ) : (
          <input
            {...control}
            class={className}
            name={field.name}
            type={
              (field.type === "number"
                ? "number"
                : field.type === "date"
                  ? "datetime-local"
                  : (TEXT_TYPES[field.format ?? ""] ?? "text")) as "text"
            }
            value={text}
            onInput={(event) => props.onInput(event.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
          />
        )
      }
    </Field>
  );
}
