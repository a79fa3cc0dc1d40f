/**
 * Example values derived from validators: what a preview or a mock answers
 * for a route nobody wrote a fake for, and the `example` of a docs page.
 * The value always passes the validator it came from.
 */
import { partsOf } from "../../values/parts.ts";
import type { AnyValidator, Infer } from "../../values/validator.ts";

/**
 * A value that the validator accepts: the first word of an enum, the lower
 * bound of a range, empty arrays and records, every field of an object
 * (optional ones left out), `null` for a union that allows it (an unset
 * value, as a new record has), else the union's first member. `overrides` replaces
 * fields by name at any depth (`{ email: "ann@example.com" }`).
 *
 * @example
 * ```ts
 * fakeOf(v.object({ user: adminUser }), { email: "ann@example.com" });
 * ```
 */
export function fakeOf<V extends AnyValidator>(
  validator: V,
  overrides: Readonly<Record<string, unknown>> = {},
): Infer<V> {
  // Built kind by kind from the validator itself, so it has the validator's type (a test checks each kind).
  return fakeValue(validator, overrides) as Infer<V>;
}

function fakeValue(validator: AnyValidator, overrides: Readonly<Record<string, unknown>>): unknown {
  const spec = partsOf(validator);
  switch (spec.kind) {
    case "string":
      return spec.words?.[0] ?? "text";
    case "number":
      return spec.minimum ?? 0;
    case "boolean":
      return false;
    case "null":
      return null;
    case "int64":
      return 0n;
    case "bytes":
      return new Uint8Array();
    case "id":
      return `${spec.table}_${"0".repeat(26)}`;
    case "literal":
      return spec.value;
    case "array":
      return [];
    case "record":
      return {};
    case "union": {
      const first = spec.members[0];
      if (first === undefined || spec.members.some((member) => member.kind === "null")) return null;
      return fakeValue(first, overrides);
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(spec.shape)) {
        if (Object.hasOwn(overrides, name)) out[name] = overrides[name];
        else if (!field.isOptional) out[name] = fakeValue(field, overrides);
      }
      return out;
    }
    default:
      return null;
  }
}
