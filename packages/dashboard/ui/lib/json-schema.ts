/**
 * JSON Schema (OpenAPI 3.1 dialect) for reading: follow local `$ref`s, name a
 * schema's type in one line, list its properties and the constraints worth
 * showing. Pure and tolerant of odd shapes; used by the OpenAPI reader and
 * the API page's schema view.
 */

/** A JSON Schema (OpenAPI 3.1 dialect), read loosely. */
export type Schema = { readonly [key: string]: unknown };

/** True for a JSON object (not an array, not null): the shape every OpenAPI node has. */
export function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The target of a local `$ref` (`#/components/schemas/Problem`), or undefined. */
export function resolveRef(document: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

/** The last segment of a `$ref`: `#/components/schemas/Problem` → `Problem`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** Follows `$ref`s (a few hops at most) to the object they name. */
export function deref(document: Schema, node: unknown): Schema | undefined {
  let current = node;
  for (let hop = 0; hop < 8 && isObject(current) && typeof current.$ref === "string"; hop++) {
    current = resolveRef(document, current.$ref);
  }
  return isObject(current) ? current : undefined;
}

/** A one-line type for a schema: `string`, `integer | null`, `array of Message`, `"a" | "b"`. */
export function typeLabel(schema: Schema | undefined, document: Schema): string {
  if (schema === undefined) return "any";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      return options
        .map((option) => typeLabel(isObject(option) ? option : undefined, document))
        .join(" | ");
    }
  }
  if (Array.isArray(schema.allOf)) {
    const named = schema.allOf.find((part) => isObject(part) && typeof part.$ref === "string");
    return isObject(named) ? typeLabel(named, document) : "object";
  }
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  const labels = types.map((type) =>
    type === "array"
      ? `array of ${typeLabel(isObject(schema.items) ? schema.items : undefined, document)}`
      : type,
  );
  if (labels.length > 0) return labels.join(" | ");
  if (isObject(schema.properties)) return "object";
  return "any";
}

/** Validation facts worth showing beside a type: format, pattern, bounds, default. */
export function constraintsOf(schema: Schema | undefined): string[] {
  if (schema === undefined) return [];
  const facts: string[] = [];
  if (typeof schema.format === "string") facts.push(`format ${schema.format}`);
  if (typeof schema.pattern === "string") facts.push(`pattern ${schema.pattern}`);
  const bounds: [string, string][] = [
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minimum", "≥"],
    ["maximum", "≤"],
    ["exclusiveMinimum", ">"],
    ["exclusiveMaximum", "<"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
  ];
  for (const [key, label] of bounds) {
    if (typeof schema[key] === "number") facts.push(`${label} ${schema[key]}`);
  }
  if ("default" in schema) facts.push(`default ${JSON.stringify(schema.default)}`);
  return facts;
}

/** The properties of an object schema (through `allOf` and `$ref`), with required flags. */
export function propertiesOf(
  schema: Schema | undefined,
  document: Schema,
): { name: string; schema: Schema; required: boolean }[] {
  const target = deref(document, schema);
  if (target === undefined) return [];
  const required = new Set(Array.isArray(target.required) ? target.required.map(String) : []);
  const own = isObject(target.properties)
    ? Object.entries(target.properties)
        .filter((entry): entry is [string, Schema] => isObject(entry[1]))
        .map(([name, property]) => ({ name, schema: property, required: required.has(name) }))
    : [];
  if (!Array.isArray(target.allOf)) return own;
  const merged = new Map<string, { name: string; schema: Schema; required: boolean }>();
  for (const part of target.allOf) {
    for (const property of propertiesOf(isObject(part) ? part : undefined, document)) {
      const previous = merged.get(property.name);
      merged.set(property.name, {
        name: property.name,
        schema: previous ? { ...previous.schema, ...property.schema } : property.schema,
        required: property.required || (previous?.required ?? false),
      });
    }
  }
  for (const property of own) merged.set(property.name, property);
  return [...merged.values()];
}
