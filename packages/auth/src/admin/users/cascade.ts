import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import type { SqlNames } from "../sql-names.ts";

/** How deep references are followed (user → session is 1; oauthClient → its tokens is 2). */
const MAX_DEPTH = 4;

interface Selection {
  model: string;
  /** Condition on `model`'s table (unaliased) selecting the rows being removed. */
  where: string;
  binds: unknown[];
}

interface Plan {
  statements: { sql: string; binds: unknown[] }[];
  /** Dependents whose rule forbids removing what they refer to. */
  restricted: { model: string; where: string; binds: unknown[] }[];
}

/**
 * The statements that remove a row and everything that depends on it, as the
 * schema's references declare (`onDelete`, `cascade` when unset, as
 * better-auth's migrator creates them): dependents are deleted (and theirs,
 * recursively), `set null` references are cleared, children before parents.
 * D1 databases whose tables were created without foreign keys (or by other
 * tools) then lose nothing the app would expect gone. Run the statements in
 * one D1 batch: they land together or not at all.
 *
 * Discovered from better-auth's resolved schema, so every plugin's tables are
 * covered (sessions, accounts, two-factor, passkeys, members, invitations,
 * OAuth clients, a community plugin's own table, ...).
 *
 * @throws {SvcError} `CONFLICT` when a dependent's rule is `restrict` /
 * `no action` / `set default` and such rows exist
 * @example
 * ```ts
 * const statements = await removalStatements(environment, "user", userId);
 * await db.batch([...statements, audit.okStatement()]);
 * ```
 */
export async function removalStatements(
  environment: AdminEnvironment,
  model: string,
  id: string,
): Promise<D1PreparedStatement[]> {
  const { names, db } = environment;
  const root: Selection = { model, where: `${names.column(model, "id")} = ?`, binds: [id] };
  const plan: Plan = { statements: [], restricted: [] };
  planDependents(names, root, 1, plan);
  for (const restricted of plan.restricted) {
    const found = await db
      .prepare(`SELECT 1 FROM ${names.table(restricted.model)} WHERE ${restricted.where} LIMIT 1`)
      .bind(...restricted.binds)
      .first();
    if (found !== null) {
      throw new SvcError(
        "CONFLICT",
        `Cannot delete: ${restricted.model} rows still refer to it and their schema forbids removing it.`,
      );
    }
  }
  plan.statements.push({
    sql: `DELETE FROM ${names.table(model)} WHERE ${root.where}`,
    binds: root.binds,
  });
  return plan.statements.map(({ sql, binds }) => db.prepare(sql).bind(...binds));
}

function planDependents(names: SqlNames, parent: Selection, depth: number, plan: Plan): void {
  if (depth > MAX_DEPTH) return;
  for (const dependent of names.referencesTo(parent.model)) {
    const keys =
      `SELECT ${names.column(parent.model, dependent.reference.field)} ` +
      `FROM ${names.table(parent.model)} WHERE ${parent.where}`;
    const child: Selection = {
      model: dependent.model,
      where: `${names.column(dependent.model, dependent.field)} IN (${keys})`,
      binds: parent.binds,
    };
    switch (dependent.reference.onDelete) {
      case "cascade":
        planDependents(names, child, depth + 1, plan);
        plan.statements.push({
          sql: `DELETE FROM ${names.table(child.model)} WHERE ${child.where}`,
          binds: child.binds,
        });
        break;
      case "set null":
        plan.statements.push({
          sql:
            `UPDATE ${names.table(child.model)} SET ${names.column(child.model, dependent.field)} = NULL ` +
            `WHERE ${child.where}`,
          binds: child.binds,
        });
        break;
      default:
        plan.restricted.push(child);
    }
  }
}
