import { partsOf } from "../values/parts.ts";
import type { AnyValidator, JsonSchema } from "../values/validator.ts";
import { schemaNameOf } from "./contract/named.ts";

/**
 * JSON Schema of a validator in which every {@link named} part becomes a
 * `$ref` to `#/components/schemas/<name>`, collected into `components`
 * (each name once; one name for two different shapes throws).
 *
 * @example
 * ```ts
 * const components: Record<string, JsonSchema> = {};
 * schemaWithRefs(v.object({ user: adminUser }), components); // { …, properties: { user: { $ref: "#/components/schemas/User" } } }
 * ```
 */
export function schemaWithRefs(
  validator: AnyValidator,
  components: Record<string, JsonSchema>,
  inside = false,
): JsonSchema {
  const name = inside ? undefined : schemaNameOf(validator);
  if (name !== undefined) {
    const schema = schemaWithRefs(validator, components, true);
    const known = components[name];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`svc: two different schemas are both named ${name}`);
    components[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  }
  const parts = partsOf(validator);
  const described = (schema: JsonSchema) =>
    validator.description === undefined
      ? schema
      : { ...schema, description: validator.description };
  switch (parts.kind) {
    case "object": {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(parts.shape)) {
        properties[key] = schemaWithRefs(field, components);
        if (!field.isOptional) required.push(key);
      }
      return described({
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      });
    }
    case "array":
      return described({ type: "array", items: schemaWithRefs(parts.item, components) });
    case "union":
      return described({ anyOf: parts.members.map((m) => schemaWithRefs(m, components)) });
    case "record":
      return described({
        type: "object",
        ...(parts.keys ? { propertyNames: parts.keys.toJsonSchema() } : {}),
        additionalProperties: schemaWithRefs(parts.values, components),
      });
    default:
      return validator.toJsonSchema();
  }
}
