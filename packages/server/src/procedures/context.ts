import type { DatabaseReader, DatabaseWriter } from "../db/types.ts";
import type { BaseCtx } from "../model/base-ctx.ts";
import type { ProcedureKind } from "../model/call-meta.ts";
import type { DataModelFromRegister } from "../schema/data-model.ts";
import type { StorageActionWriter, StorageReader, StorageWriter } from "../storage/context.ts";
import type { RunnableReference } from "./references.ts";
import type { Scheduler } from "./scheduler.ts";

/** Runs a query (public or internal) with the caller's identity, in this shard. */
export type RunQuery = <Args, Output>(
  ref: RunnableReference<"query", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;
/** Runs a mutation (public or internal); inside a mutation it joins its transaction. */
export type RunMutation = <Args, Output>(
  ref: RunnableReference<"mutation", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;
/** Runs an action (public or internal). */
export type RunAction = <Args, Output>(
  ref: RunnableReference<"action", Args, Output>,
  ...args: OptionalArgs<Args>
) => Promise<Output>;

/** Arguments may be omitted when every field is optional. */
export type OptionalArgs<Args> = Record<string, never> extends Args ? [args?: Args] : [args: Args];

/** Context of a query (and of a stream): read-only database. */
export interface QueryCtx<Args = unknown, DM = DataModelFromRegister> extends BaseCtx<Args> {
  db: DatabaseReader<DM>;
  runQuery: RunQuery;
  /** Files the caller may read (docs/storage.md); present when the shard has storage. */
  storage: StorageReader;
}

/** Context of a mutation: read-write database in one transaction. */
export interface MutationCtx<Args = unknown, DM = DataModelFromRegister> extends BaseCtx<Args> {
  db: DatabaseWriter<DM>;
  runQuery: RunQuery;
  runMutation: RunMutation;
  /** Files: read, issue upload URLs, delete (docs/storage.md). */
  storage: StorageWriter;
  /** Schedules a mutation or action to run later, in this mutation's transaction (docs/scheduler.md). */
  scheduler: Scheduler;
}

/** Context of an action: no database; calls other procedures. */
export interface ActionCtx<Args = unknown> extends BaseCtx<Args> {
  runQuery: RunQuery;
  runMutation: RunMutation;
  runAction: RunAction;
  /** Files: also store bytes and read them back (docs/storage.md). */
  storage: StorageActionWriter;
  /** Schedules a mutation or action to run later (docs/scheduler.md). */
  scheduler: Scheduler;
}

/** The context type for a procedure kind. */
export type CtxForKind<Kind extends ProcedureKind, Args> = Kind extends "mutation"
  ? MutationCtx<Args>
  : Kind extends "action"
    ? ActionCtx<Args>
    : QueryCtx<Args>;
