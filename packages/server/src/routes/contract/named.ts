import type { Validator } from "../../values/validator.ts";

/**
 * Gives a validator a schema name: the OpenAPI document then holds it once
 * under `components.schemas.<name>` and refers to it (`$ref`), and the docs
 * tables write the name (`User`) instead of spelling the shape out.
 *
 * @example
 * ```ts
 * export const adminUser = named("User", v.object({ id: v.string(), email: v.string() }));
 * ```
 */
export function named<V extends Validator<unknown, boolean>>(name: string, validator: V): V {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name))
    throw new Error(`svc: schema name ${JSON.stringify(name)} must be letters, digits and _`);
  return Object.freeze({ ...validator, schemaName: name });
}

/** The name {@link named} gave a validator, if any. */
export function schemaNameOf(validator: Validator<unknown, boolean>): string | undefined {
  const name = (validator as { schemaName?: unknown }).schemaName;
  return typeof name === "string" ? name : undefined;
}
