/**
 * A set of objects svc keeps beside better-auth's schema: one table, its
 * indexes and the triggers that keep it current, all named with one prefix,
 * each recognised by its exact DDL (the text SQLite keeps in
 * `sqlite_master`), so a migration can tell a current set from a stale one.
 *
 * @example
 * ```ts
 * const kept: KeptObjects = { table: "svc_revocation", statements: revocationLogStatements(names), fill: [] };
 * ```
 */
export interface KeptObjects {
  /** The table's name; every index and trigger of the set starts with it and `_`. */
  table: string;
  /** The DDL, in order: the table first. */
  statements: string[];
  /** Statements that fill the table from existing rows, run when the user table already exists. */
  fill: string[];
}

/** A row of `sqlite_master`: a table, index or trigger and its DDL. */
export interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * The `sqlite_master` query for {@link pendingKeptStatements}: the set's
 * table, indexes and triggers, and the user table (whose presence says
 * whether there are rows to fill from).
 *
 * @example
 * ```ts
 * const { sql, binds } = keptObjectsQuery("svc_revocation", "user");
 * const existing = await db.prepare(sql).bind(...binds).all<SchemaRow>();
 * ```
 */
export function keptObjectsQuery(
  table: string,
  userTable: string,
): { sql: string; binds: string[] } {
  return {
    sql:
      "SELECT type, name, sql FROM sqlite_master WHERE name = ? OR (type = 'table' AND name = ?) " +
      "OR (type IN ('index', 'trigger') AND name LIKE ? ESCAPE '\\')",
    binds: [table, userTable, `${table.replaceAll("_", "\\_")}\\_%`],
  };
}

/**
 * What a database needs so its objects match `kept`: nothing when every one
 * is there with the same text (unless `rebuild`: something they hang on is
 * rebuilt in the same batch); otherwise drop those that exist (triggers
 * first, they live on other tables; the table takes its indexes with it),
 * create all, and fill the table when the user table already exists. Run
 * after better-auth's own DDL, in the same batch.
 *
 * @example
 * ```ts
 * statements.push(...pendingKeptStatements(kept, existing.results, "user"));
 * ```
 */
export function pendingKeptStatements(
  kept: KeptObjects,
  existing: readonly SchemaRow[],
  userTable: string,
  rebuild = false,
): string[] {
  const objects = existing.filter((object) => object.name !== userTable);
  const have = new Set(objects.map((object) => object.sql));
  const current =
    objects.length === kept.statements.length && kept.statements.every((sql) => have.has(sql));
  if (current && !rebuild) return [];
  // `IF EXISTS`: a table rebuilt earlier in the same batch may already have taken a trigger with it.
  const drops = [
    ...objects
      .filter((object) => object.type === "trigger")
      .map((object) => `DROP TRIGGER IF EXISTS "${object.name.replaceAll('"', '""')}"`),
    ...(objects.some((object) => object.name === kept.table)
      ? [`DROP TABLE IF EXISTS "${kept.table}"`]
      : []),
  ];
  const fill = existing.some((object) => object.name === userTable) ? kept.fill : [];
  return [...drops, ...kept.statements, ...fill];
}
