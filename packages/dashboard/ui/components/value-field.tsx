import {
  choicesOf,
  controlOf,
  type FieldSchema,
  textOfValue,
  valueOfText,
} from "../lib/field-values.ts";
import { typeLabel } from "../lib/json-schema.ts";
import { Field } from "./form-parts.tsx";

/**
 * One value edited as its validator describes it (a document's field, a
 * procedure's argument): a text box for strings and numbers, a choice for
 * booleans and literal unions, JSON for anything else. An optional value
 * left empty is left out. `problem` is the server's word on it, shown under
 * the control and tied to it for screen readers.
 *
 * @example
 * ```tsx
 * <ValueField name="title" schema={{ type: "string" }} optional={false} text={text} onInput={setText} />
 * ```
 */
export function ValueField(props: {
  name: string;
  schema: FieldSchema;
  optional: boolean;
  text: string;
  onInput: (text: string) => void;
  problem?: string | undefined;
}) {
  const control = controlOf(props.schema);
  const type = typeLabel(props.schema, {});
  const hint = `${type}${props.optional ? " · optional: leave empty to leave it out" : ""}`;
  const invalid = props.problem ? "input input-invalid" : "input";
  return (
    <Field label={<span class="mono">{props.name}</span>} hint={hint} problem={props.problem}>
      {(attributes) => {
        if (control === "boolean" || control === "choice") {
          const options =
            control === "boolean"
              ? ["true", "false"]
              : (choicesOf(props.schema) ?? []).map((value) => JSON.stringify(value));
          return (
            <select
              {...attributes}
              class={invalid}
              name={props.name}
              value={props.text}
              onChange={(event) => props.onInput(event.currentTarget.value)}
            >
              {props.optional || !options.includes(props.text) ? (
                <option value="">{props.optional ? "— left out —" : "— choose —"}</option>
              ) : null}
              {options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          );
        }
        if (control === "json") {
          return (
            <textarea
              {...attributes}
              class={`${invalid} mono`}
              name={props.name}
              rows={3}
              value={props.text}
              onInput={(event) => props.onInput(event.currentTarget.value)}
              spellcheck={false}
            />
          );
        }
        return (
          <input
            {...attributes}
            class={control === "number" ? `${invalid} mono` : invalid}
            name={props.name}
            inputMode={control === "number" ? "decimal" : undefined}
            value={props.text}
            onInput={(event) => props.onInput(event.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
          />
        );
      }}
    </Field>
  );
}

/** The texts of a form of values, from the values themselves. */
export function textsOf(
  fields: readonly { name: string; schema: FieldSchema }[],
  values: Record<string, unknown>,
): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const field of fields)
    texts[field.name] = textOfValue(controlOf(field.schema), values[field.name]);
  return texts;
}

/** The values a form's texts stand for; empty optional ones are left out. */
export function valuesOf(
  fields: readonly { name: string; schema: FieldSchema; optional: boolean }[],
  texts: Record<string, string>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueOfText(controlOf(field.schema), texts[field.name] ?? "", field.optional);
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}
