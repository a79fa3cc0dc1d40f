/**
 * The organization form's own checks, matching the server's rules (see
 * "Managing organizations" in `docs/admin-api.md`), so a typo in a slug or
 * in the metadata JSON is caught at its field before anything is sent.
 * Pure functions, unit-tested in Node.
 */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_METADATA_BYTES = 10_000;

/** A slug suggested from a name ("Acme Robotics, Inc." → "acme-robotics-inc"). */
export function slugFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A slug the server accepts (lowercase letters, digits, single hyphens), or what is wrong. */
export function slugProblem(slug: string): string | undefined {
  if (slug === "") return "Enter a slug.";
  if (!SLUG.test(slug)) return "Use lowercase letters, digits and single hyphens, like acme-labs.";
  return undefined;
}

/** An empty logo, an http(s) URL or an image data URL, or what is wrong. */
export function logoProblem(logo: string): string | undefined {
  const value = logo.trim();
  if (value === "" || /^data:image\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return undefined;
  } catch {}
  return "Enter an http(s) address, like https://example.com/logo.png.";
}

/**
 * The metadata text read as the JSON object the server stores: `null` for an
 * empty text (no metadata), else the object or what is wrong with the text.
 */
export function parseMetadata(
  text: string,
): { value: Record<string, unknown> | null } | { problem: string } {
  if (text.trim() === "") return { value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `This is not valid JSON: ${(error as Error).message}.` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: 'Enter a JSON object, like {"plan": "pro"}.' };
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_METADATA_BYTES) {
    return { problem: "Keep the metadata under 10 kB." };
  }
  return { value: value as Record<string, unknown> };
}

/** The metadata as the form shows it: indented JSON, or empty. */
export function metadataText(metadata: Record<string, unknown> | null): string {
  return metadata === null ? "" : JSON.stringify(metadata, null, 2);
}
