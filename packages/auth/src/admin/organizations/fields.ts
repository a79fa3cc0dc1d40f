import { Issues } from "../issues.ts";

const MAX_NAME = 200;
const MAX_SLUG = 100;
const MAX_LOGO = 2000;
const MAX_METADATA_BYTES = 10_000;
/** Lowercase words joined by single hyphens: safe in URLs, what better-auth apps put in paths. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An organization's fields after {@link checkOrganizationFields}: the columns to write. */
export interface OrganizationFields {
  name?: string;
  slug?: string;
  logo?: string | null;
  /** JSON text, as better-auth stores it, or `null`. */
  metadata?: string | null;
}

/**
 * Checks the fields given (trimmed name of 1–200 characters; a slug of
 * lowercase letters, digits and single hyphens; an `http(s)` or image data
 * URL as logo; metadata an object of at most 10 kB of JSON) and answers them
 * ready to store. `required` names the fields that must be present.
 *
 * @throws {SvcError} `VALIDATION_FAILED` listing every field's problem
 * @example
 * ```ts
 * const fields = checkOrganizationFields(body, ["name", "slug"]);
 * ```
 */
export function checkOrganizationFields(
  body: {
    name?: string | undefined;
    slug?: string | undefined;
    logo?: string | null | undefined;
    metadata?: Record<string, unknown> | null | undefined;
  },
  required: readonly ("name" | "slug")[] = [],
): OrganizationFields {
  const issues = new Issues("body");
  const fields: OrganizationFields = {};
  for (const field of required) {
    if (body[field] === undefined) issues.add(field, "is required");
  }
  if (body.name !== undefined) {
    const name = body.name.trim();
    if (name === "" || name.length > MAX_NAME) {
      issues.add("name", `must be 1 to ${MAX_NAME} characters`);
    } else fields.name = name;
  }
  if (body.slug !== undefined) {
    const slug = body.slug.trim();
    if (!SLUG.test(slug) || slug.length > MAX_SLUG) {
      issues.add(
        "slug",
        `must be lowercase letters, digits and single hyphens, at most ${MAX_SLUG} characters (e.g. "acme-inc")`,
      );
    } else fields.slug = slug;
  }
  if (body.logo !== undefined) {
    const logo = body.logo === null ? null : body.logo.trim();
    if (logo !== null && logo !== "" && !isLogoUrl(logo)) {
      issues.add(
        "logo",
        `must be an http(s) URL or an image data URL of at most ${MAX_LOGO} characters`,
      );
    } else fields.logo = logo === "" ? null : logo;
  }
  if (body.metadata !== undefined) {
    const text = body.metadata === null ? null : JSON.stringify(body.metadata);
    if (text !== null && new TextEncoder().encode(text).length > MAX_METADATA_BYTES) {
      issues.add("metadata", `must be at most ${MAX_METADATA_BYTES} bytes of JSON`);
    } else fields.metadata = text;
  }
  issues.throwIfAny();
  return fields;
}

function isLogoUrl(value: string): boolean {
  if (value.length > MAX_LOGO) return false;
  if (value.startsWith("data:image/")) return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
