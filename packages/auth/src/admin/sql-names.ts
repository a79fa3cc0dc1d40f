import type { BetterAuthDBSchema } from "better-auth";

/** A field's `references`, as better-auth's schema declares it. */
export interface Reference {
  model: string;
  field: string;
  onDelete: string;
}

/** Quotes a SQL identifier for SQLite (`"name"`, inner quotes doubled). */
function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Physical table and column names of the auth schema, read from
 * better-auth's own resolved tables (`(await auth.$context).tables`), so the
 * admin SQL follows an app's `modelName` / `fields` renames. Names come back
 * quoted, ready to paste into SQL; values are always bound, never pasted.
 *
 * @example
 * ```ts
 * const names = new SqlNames(ctx.tables);
 * `SELECT ${names.column("user", "email")} FROM ${names.table("user")}`;
 * ```
 */
export class SqlNames {
  readonly #tables: BetterAuthDBSchema;

  constructor(tables: BetterAuthDBSchema) {
    this.#tables = tables;
  }

  /** True when the schema has this model (its plugin is enabled). */
  hasModel(model: string): boolean {
    return Object.hasOwn(this.#tables, model);
  }

  /** True when the model has this field (`id` always). */
  hasField(model: string, field: string): boolean {
    return field === "id" || Object.hasOwn(this.#tables[model]?.fields ?? {}, field);
  }

  /** The quoted table name of a model. */
  table(model: string): string {
    const table = this.#tables[model];
    if (table === undefined) throw new Error(`svc/auth admin: no model ${model} in the schema`);
    return quoteIdentifier(table.modelName);
  }

  /** The quoted column of a field, optionally qualified by a table alias. */
  column(model: string, field: string, alias?: string): string {
    const column = quoteIdentifier(this.#physicalField(model, field));
    return alias === undefined ? column : `${alias}.${column}`;
  }

  /**
   * `alias.column AS "field"` for each field the model has, `NULL AS "field"`
   * for each it lacks (a plugin that is off), so rows always carry the same
   * logical keys.
   */
  select(model: string, fields: readonly string[], alias: string, prefix = ""): string {
    return fields
      .map((field) => {
        const as = quoteIdentifier(`${prefix}${field}`);
        return this.hasField(model, field)
          ? `${this.column(model, field, alias)} AS ${as}`
          : `NULL AS ${as}`;
      })
      .join(", ");
  }

  /** Every field of every model that references `model`, with its delete rule. */
  referencesTo(model: string): { model: string; field: string; reference: Reference }[] {
    const found: { model: string; field: string; reference: Reference }[] = [];
    for (const [name, table] of Object.entries(this.#tables)) {
      for (const [field, attribute] of Object.entries(table.fields)) {
        const reference = attribute.references;
        if (reference?.model !== model) continue;
        found.push({
          model: name,
          field,
          reference: {
            model: reference.model,
            field: reference.field,
            // better-auth's migrator creates references with ON DELETE CASCADE unless told otherwise.
            onDelete: reference.onDelete ?? "cascade",
          },
        });
      }
    }
    return found;
  }

  #physicalField(model: string, field: string): string {
    if (field === "id") return "id";
    const attribute = this.#tables[model]?.fields[field];
    if (attribute === undefined) {
      throw new Error(`svc/auth admin: no field ${model}.${field} in the schema`);
    }
    return attribute.fieldName ?? field;
  }
}
