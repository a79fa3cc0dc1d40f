import { CREATION_TIME_INDEX } from "../db/query.ts";
import { sqlTable } from "../db/storage.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import { isRule, type Rule } from "../schema/rule.ts";
import type { PolicyForm, TableInfo } from "./shard-protocol.ts";

const OPERATIONS = ["read", "insert", "update", "delete"] as const;

/**
 * A table of the schema by name; an unknown name (or an inherited key such
 * as `constructor`) is the same `NOT_FOUND` as any other missing thing.
 *
 * @example tableNamed(schema, "messages").indexes // { by_author: ["author"] }
 */
export function tableNamed(schema: SchemaDefinition, name: string): AnyTableDefinition {
  const definition = Object.hasOwn(schema.tables, name) ? schema.tables[name] : undefined;
  if (definition === undefined) throw new SvcError("NOT_FOUND", "Not found.");
  return definition;
}

/**
 * The index fields of `index` on a table (`by_creation_time` has none), or
 * `undefined` when the table has no such index.
 */
export function indexFields(definition: AnyTableDefinition, index: string): string[] | undefined {
  if (Object.hasOwn(definition.indexes, index)) return [...(definition.indexes[index] ?? [])];
  return index === CREATION_TIME_INDEX ? [] : undefined;
}

function policyForm(entry: unknown): PolicyForm {
  if (entry === undefined) return "none";
  return isRule(entry) ? "rule" : "function";
}

/** The fields a rule compares with the caller's user id (`rule.userId`, an API key's owner user). */
function userIdFields(target: Rule): string[] {
  if (target.op === "eq" || target.op === "in") {
    const { operand } = target;
    const holdsUser =
      operand.kind === "userId" || (operand.kind === "apiKey" && operand.field === "ownerUserId");
    return holdsUser ? [target.field] : [];
  }
  if (target.op === "and" || target.op === "or") return target.rules.flatMap(userIdFields);
  return [];
}

/**
 * The top-level fields of a table that hold a user's id, as its declarative
 * policies say: a field a rule compares with the caller's user id holds one.
 *
 * @example userFieldsOf(messages) // ["author"] for read: rule.eq("author", rule.userId)
 */
function userFieldsOf(definition: AnyTableDefinition): string[] {
  const found = new Set<string>();
  for (const operation of OPERATIONS) {
    const entry = definition.policies?.[operation];
    if (isRule(entry)) for (const field of userIdFields(entry)) found.add(field);
  }
  return [...found].filter((field) => Object.hasOwn(definition.fields, field));
}

/**
 * Describes every table of a shard for the data studio: its stored row count,
 * fields with their validators as JSON Schema, the fields that hold a
 * user's id, indexes and how each RLS operation is declared (never the
 * policy's code or values).
 *
 * @example describeTables(ctx.storage.sql, schema)[0] // { name: "messages", rows: 3, … }
 */
export function describeTables(sql: SqlStorage, schema: SchemaDefinition): TableInfo[] {
  return Object.entries(schema.tables).map(([name, definition]) => {
    const rows = sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${sqlTable(name)}`).one().n;
    const policies = definition.policies;
    return {
      name,
      rows,
      fields: Object.entries(definition.fields).map(([field, validator]) => ({
        name: field,
        optional: validator.isOptional,
        schema: validator.toJsonSchema(),
      })),
      userFields: userFieldsOf(definition),
      indexes: [
        { name: CREATION_TIME_INDEX, fields: [] },
        ...Object.entries(definition.indexes).map(([index, fields]) => ({
          name: index,
          fields: [...fields],
        })),
      ],
      searchIndexes: Object.entries(definition.searchIndexes).map(([index, spec]) => ({
        name: index,
        searchField: spec.searchField,
        filterFields: [...spec.filterFields],
      })),
      policies:
        policies === undefined
          ? null
          : (Object.fromEntries(
              OPERATIONS.map((operation) => [operation, policyForm(policies[operation])]),
            ) as Record<(typeof OPERATIONS)[number], PolicyForm>),
    };
  });
}
