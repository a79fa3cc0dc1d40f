import { partsOf } from "../../values/parts.ts";
import type { AnyValidator } from "../../values/validator.ts";
import { schemaNameOf } from "./named.ts";

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
  const parts = partsOf(validator);
  switch (parts.kind) {
    case "object": {
      const fields = Object.entries(parts.shape).map(
        ([key, field]) => `${key}${field.isOptional ? "?" : ""}: ${typeText(field)}`,
      );
      return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
    }
    case "array": {
      const item = typeText(parts.item);
      return item.includes(" | ") && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "record":
      return `Record<string, ${typeText(parts.values)}>`;
    case "union":
      return parts.members.map((member) => typeText(member)).join(" | ");
    case "literal":
      return typeof parts.value === "bigint" ? `${parts.value}n` : JSON.stringify(parts.value);
    case "string":
      return parts.words?.map((word) => JSON.stringify(word)).join(" | ") ?? "string";
    case "number":
      return parts.integer && parts.minimum !== undefined && parts.maximum !== undefined
        ? `integer ${parts.minimum}–${parts.maximum}`
        : "number";
    case "any":
      return "unknown";
    default:
      return parts.kind;
  }
}
