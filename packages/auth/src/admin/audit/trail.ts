import { SvcError } from "@svc/server";
import type { AuditAction, AuditTarget } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import { toAdminError } from "../errors.ts";
import { AUDIT_MODEL } from "../schema-plugin.ts";

export type { AuditTarget, AuditTargetType } from "../contract/index.ts";
export { AUDIT_ACTIONS, type AuditAction } from "../contract/index.ts";

/**
 * Where audit records go: the auth's D1 database, its names, and its id
 * generator (an {@link AdminEnvironment} is one; so is what a better-auth
 * endpoint of svc's own plugins has).
 */
export type AuditDatabase = Pick<AdminEnvironment, "names" | "db"> & {
  auth: Pick<AdminEnvironment["auth"], "generateId">;
};

const INTERNAL_DETAIL = "An internal error occurred.";

/**
 * The audit record of one admin action: who (the operator, i.e. the name of
 * the admin token), what, to whom, when, with what outcome, and the reason an
 * operator gave. Routes fill in `detail` / `reason`; an action that writes
 * in one D1 batch puts {@link okStatement} into that batch, so the action and
 * its record land together or not at all. The router calls {@link finish}
 * with the outcome, which writes the record unless the batch already did.
 *
 * Entries are only ever inserted: no route updates or deletes them.
 *
 * @example
 * ```ts
 * audit.detail = `role: ${before} → ${after}`;
 * await env.db.batch([update, audit.okStatement()]);
 * ```
 */
export class AuditScope {
  readonly action: AuditAction;
  readonly operator: string;
  target: AuditTarget;
  detail: string | null = null;
  reason: string | null = null;
  readonly #environment: AuditDatabase;
  #recorded = false;

  constructor(
    environment: AuditDatabase,
    operator: string,
    action: AuditAction,
    target: AuditTarget,
  ) {
    this.#environment = environment;
    this.operator = operator;
    this.action = action;
    this.target = target;
  }

  /** The insert of this action's successful record, for the action's own batch. */
  okStatement(): D1PreparedStatement {
    this.#recorded = true;
    return this.#insert("ok", this.detail);
  }

  /**
   * {@link okStatement} that inserts only while `condition` (SQL with `?`
   * placeholders for `bindings`) holds when it runs: in a batch after a
   * conditional write, the record lands exactly when the write did.
   *
   * @example
   * ```ts
   * await db.batch([insertIfUnderLimit, audit.okStatementIf("EXISTS (SELECT 1 FROM k WHERE id = ?)", [id])]);
   * ```
   */
  okStatementIf(condition: string, bindings: readonly unknown[]): D1PreparedStatement {
    this.#recorded = true;
    return this.#insert("ok", this.detail, { condition, bindings });
  }

  /** Writes the successful record now (for actions that cannot batch). */
  async writeOk(): Promise<void> {
    await this.okStatement().run();
  }

  /** Writes a failed action's record now, with its client-safe message. */
  async writeError(detail: string | null): Promise<void> {
    await this.#insert("error", detail).run();
  }

  /**
   * Records the outcome once the action is over: an error with its message
   * (a failed batch wrote nothing, so this is the only record), or success
   * when the action did not write its record itself. A failure to write a
   * success record is logged: the action already happened.
   */
  async finish(error?: unknown): Promise<void> {
    try {
      if (error !== undefined) {
        const normalized = toAdminError(error);
        const message = normalized instanceof SvcError && normalized.code !== "INTERNAL";
        await this.#insert("error", message ? normalized.message : INTERNAL_DETAIL).run();
      } else if (!this.#recorded) {
        await this.writeOk();
      }
    } catch (failure) {
      console.error(`svc/auth admin: could not record ${this.action} in the audit trail`, failure);
    }
  }

  #insert(
    outcome: "ok" | "error",
    detail: string | null,
    only?: { condition: string; bindings: readonly unknown[] },
  ): D1PreparedStatement {
    const { names, db, auth } = this.#environment;
    const id = auth.generateId({ model: AUDIT_MODEL });
    const values: [string, unknown][] = [
      ["at", new Date().toISOString()],
      ["operator", this.operator],
      ["action", this.action],
      ["targetType", this.target.targetType],
      ["targetId", this.target.targetId],
      ["userId", this.target.userId],
      ["outcome", outcome],
      ["detail", detail],
      ["reason", this.reason],
    ];
    // `false` means the database numbers rows itself (generateId: "serial").
    if (id !== false) values.unshift(["id", id]);
    const columns = values.map(([field]) => names.column(AUDIT_MODEL, field)).join(", ");
    const placeholders = values.map(() => "?").join(", ");
    const into = `INSERT INTO ${names.table(AUDIT_MODEL)} (${columns})`;
    const bound = values.map(([, value]) => value);
    if (only === undefined) return db.prepare(`${into} VALUES (${placeholders})`).bind(...bound);
    return db
      .prepare(`${into} SELECT ${placeholders} WHERE ${only.condition}`)
      .bind(...bound, ...only.bindings);
  }
}
