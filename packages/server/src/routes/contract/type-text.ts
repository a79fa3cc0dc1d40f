import type { AnyValidator } from "../../values/validator.ts";
import { schemaNameOf } from "./named.ts";

interface Parts {
  shape?: Readonly<Record<string, AnyValidator>>;
  item?: AnyValidator;
  members?: readonly AnyValidator[];
  values?: AnyValidator | readonly string[];
  value?: unknown;
  minimum?: number;
  maximum?: number;
}

/**
 * A validator written as a short TypeScript-like type for docs tables:
 * named schemas by name (`User`), objects as `{ user: User, total: number }`,
 * enums as `"asc" | "desc"`, integer ranges as `integer 1–100`.
 *
 * @example
 * ```ts
 * typeText(v.object({ users: v.array(adminUser), nextCursor: v.union(v.string(), v.null()) }));
 * // "{ users: User[], nextCursor: string | null }"
 * ```
 */
export function typeText(validator: AnyValidator, inside = false): string {
  const name = inside ? undefined : schemaNameOf(validator);
  if (name !== undefined) return name;
  const parts = validator as unknown as Parts;
  switch (validator.kind) {
    case "object": {
      const fields = Object.entries(parts.shape ?? {}).map(
        ([key, field]) => `${key}${field.isOptional ? "?" : ""}: ${typeText(field)}`,
      );
      return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
    }
    case "array": {
      const item = typeText(parts.item!);
      return item.includes(" | ") && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "record":
      return `Record<string, ${typeText(parts.values as AnyValidator)}>`;
    case "union":
      return (parts.members ?? []).map((member) => typeText(member)).join(" | ");
    case "literal":
      return JSON.stringify(parts.value);
    case "string":
      return Array.isArray(parts.values)
        ? (parts.values as string[]).map((word) => JSON.stringify(word)).join(" | ")
        : "string";
    case "number":
      return parts.minimum !== undefined ? `integer ${parts.minimum}–${parts.maximum}` : "number";
    case "any":
      return "unknown";
    default:
      return validator.kind;
  }
}
