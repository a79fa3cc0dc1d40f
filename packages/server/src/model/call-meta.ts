/**
 * The four procedure kinds.
 *
 * @example const kind: ProcedureKind = "query";
 */
export type ProcedureKind = "query" | "mutation" | "action" | "stream";

/**
 * Public procedures are callable from outside; internal ones only via `ctx.run*`.
 *
 * @example const visibility: Visibility = "internal";
 */
export type Visibility = "public" | "internal";

/**
 * Which door a call came through: `rpc`, `rest`, an `http` action, a `ws`
 * subscription, a `cron` job, a `queue` consumer, `admin` (an operator's
 * data-studio read, edit or run), a job of the `scheduler`
 * (`ctx.scheduler.runAfter`), or `internal` (`ctx.run*` from another
 * procedure).
 *
 * @example if (ctx.meta.transport === "rest") ...
 */
export type Transport =
  | "rpc"
  | "rest"
  | "http"
  | "ws"
  | "cron"
  | "queue"
  | "admin"
  | "scheduler"
  | "internal";

/**
 * `ctx.meta`: facts about this call, plus room for middleware to leave data for
 * later middleware and the handler (`ctx.meta.myKey = ...`).
 *
 * @example
 * ```ts
 * console.log(`${ctx.meta.path} in ${ctx.meta.shardKey} (${ctx.meta.requestId})`);
 * ```
 */
export interface CallMeta {
  /** `namespace:function`, e.g. `messages:list`. */
  readonly path: string;
  readonly kind: ProcedureKind;
  readonly transport: Transport;
  /** The shard this call runs in (`default` when the caller named none). */
  readonly shardKey: string;
  /** A unique id for the outer request, shared by nested `ctx.run*` calls. */
  readonly requestId: string;
  /**
   * For a subscription (`transport: "ws"`): the upgrade request's `cookie`
   * and `authorization` headers, to pass to `ctx.authApi`. Absent otherwise.
   */
  readonly headers?: Readonly<Record<string, string>>;
  [key: string]: unknown;
}
