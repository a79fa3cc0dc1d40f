import { useState } from "preact/hooks";
import type { Organization } from "../../api/types.ts";
import { Field, TextField } from "../../components/form-parts.tsx";
import { type FieldProblems, problemsOf, requiredProblem } from "../../lib/form-checks.ts";
import {
  logoProblem,
  metadataText,
  parseMetadata,
  slugFrom,
  slugProblem,
} from "../../lib/organization-checks.ts";

/** The fields whose server issues (`body.<field>`) show at the field. */
export const ORGANIZATION_FIELDS = ["name", "slug", "logo", "metadata"] as const;

/** The values of an organization form, their problems, and what to send. */
export interface OrganizationForm {
  name: string;
  slug: string;
  logo: string;
  metadata: string;
  set(field: (typeof ORGANIZATION_FIELDS)[number], value: string): void;
  problems: FieldProblems;
  /** The metadata text parsed (valid only when `problems` is empty). */
  metadataValue: Record<string, unknown> | null;
}

/**
 * State of the name / slug / logo / metadata fields that creating and
 * editing share. Until the slug is typed by hand it follows the name.
 */
export function useOrganizationForm(initial: Organization | null): OrganizationForm {
  const [values, setValues] = useState({
    name: initial?.name ?? "",
    slug: initial?.slug ?? "",
    logo: initial?.logo ?? "",
    metadata: metadataText(initial?.metadata ?? null),
  });
  const [slugTyped, setSlugTyped] = useState(initial !== null);
  const metadata = parseMetadata(values.metadata);
  return {
    ...values,
    set(field, value) {
      if (field === "slug") setSlugTyped(true);
      setValues((current) => ({
        ...current,
        [field]: value,
        ...(field === "name" && !slugTyped ? { slug: slugFrom(value) } : {}),
      }));
    },
    problems: problemsOf({
      name: requiredProblem(values.name, "a name"),
      slug: slugProblem(values.slug.trim()),
      logo: logoProblem(values.logo),
      metadata: "problem" in metadata ? metadata.problem : undefined,
    }),
    metadataValue: "value" in metadata ? metadata.value : null,
  };
}

/** The shared fields of the organization dialogs, each with its problem. */
export function OrganizationFields(props: { form: OrganizationForm; problems: FieldProblems }) {
  const { form, problems } = props;
  return (
    <>
      <TextField
        label="Name"
        name="name"
        value={form.name}
        onInput={(value) => form.set("name", value)}
        problem={problems.name}
        autofocus
      />
      <TextField
        label="Slug"
        name="slug"
        value={form.slug}
        onInput={(value) => form.set("slug", value)}
        hint="Lowercase letters, digits and hyphens; used in the app's URLs."
        problem={problems.slug}
      />
      <TextField
        label={
          <>
            Logo URL <span class="muted">(optional)</span>
          </>
        }
        name="logo"
        type="url"
        value={form.logo}
        onInput={(value) => form.set("logo", value)}
        problem={problems.logo}
      />
      <Field
        label={
          <>
            Metadata <span class="muted">(optional JSON object)</span>
          </>
        }
        hint='Stored with the organization for the app to read, e.g. {"plan": "pro"}.'
        problem={problems.metadata}
      >
        {(control) => (
          <textarea
            {...control}
            class={problems.metadata ? "input input-code input-invalid" : "input input-code"}
            name="metadata"
            rows={4}
            value={form.metadata}
            onInput={(event) => form.set("metadata", event.currentTarget.value)}
            spellcheck={false}
          />
        )}
      </Field>
    </>
  );
}
