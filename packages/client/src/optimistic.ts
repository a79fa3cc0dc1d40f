import type { ArgsOf, OutputOf, PublicRef } from "./references.ts";

/**
 * What an optimistic update sees and changes: the client's current view of
 * its live queries (server values with the earlier optimistic updates on
 * top). Setting a query that no component watches does nothing.
 *
 * @example
 * ```ts
 * const update: OptimisticUpdate<{ text: string }> = (store, { text }) => {
 *   const notes = store.getQuery(api.notes.list, {});
 *   if (notes) store.setQuery(api.notes.list, {}, [{ _id: "temp", text }, ...notes]);
 * };
 * ```
 */
export interface OptimisticLocalStore {
  /** The query's current value, or `undefined` while it loads, failed or is not watched. */
  getQuery<Ref extends PublicRef<"query">>(
    ref: Ref,
    args: ArgsOf<Ref>,
    options?: { shardKey?: string },
  ): OutputOf<Ref> | undefined;
  /** Every watched instance of the query (each arguments) with its current value. */
  getAllQueries<Ref extends PublicRef<"query">>(
    ref: Ref,
    options?: { shardKey?: string },
  ): { args: ArgsOf<Ref>; value: OutputOf<Ref> | undefined }[];
  /** Shows `value` for the query until the server's value includes the mutation. */
  setQuery<Ref extends PublicRef<"query">>(
    ref: Ref,
    args: ArgsOf<Ref>,
    value: OutputOf<Ref>,
    options?: { shardKey?: string },
  ): void;
}

/**
 * A function that predicts a mutation's effect on live queries. It runs when
 * the mutation is called and again whenever server values change until the
 * server's value includes the mutation (then it stops applying, query by
 * query), and it is dropped if the mutation fails. Keep it pure: it may run
 * many times.
 */
export type OptimisticUpdate<Args> = (localStore: OptimisticLocalStore, args: Args) => void;

/** One pending optimistic update, as the store keeps it. */
export interface OptimisticLayer {
  mutationId: string;
  shardKey: string;
  args: unknown;
  update: OptimisticUpdate<unknown>;
  /** The socket opening count when the RPC answered success; `undefined` while in flight. */
  answeredAt: number | undefined;
}

/** A live query's view while updates replay: its key parts and the value shown. */
export interface ViewEntry {
  path: string;
  args: unknown;
  shardKey: string;
  /** The value shown: the server's, then each update's. */
  value: unknown;
  /** Mutations the server's value already includes: their updates skip this query. */
  includes: ReadonlySet<string>;
  loaded: boolean;
}

/**
 * Replays `layers`, in the order their mutations were called, over the
 * server values in `view` (a map by query key, changed in place). An update's
 * write to a query whose server value already includes its mutation is
 * skipped, so a push that arrives before the mutation's `applied` never shows
 * the change twice; the rest rebase onto the newest server values.
 *
 * @example replay(views, layers, keyOf) // views now hold what components show
 */
export function replay(
  view: Map<string, ViewEntry>,
  layers: readonly OptimisticLayer[],
  keyOf: (shardKey: string, path: string, args: unknown) => string,
  defaultShard: string,
): void {
  for (const layer of layers) {
    const find = (ref: { path: string }, args: unknown, options?: { shardKey?: string }) =>
      view.get(keyOf(options?.shardKey ?? defaultShard, ref.path, args ?? {}));
    const store: OptimisticLocalStore = {
      getQuery: (ref, args, options) => {
        const entry = find(ref, args, options);
        return entry?.loaded ? (entry.value as never) : undefined;
      },
      getAllQueries: (ref, options) => {
        const shardKey = options?.shardKey ?? defaultShard;
        return [...view.values()]
          .filter((entry) => entry.path === ref.path && entry.shardKey === shardKey)
          .map((entry) => ({
            args: entry.args as never,
            value: entry.loaded ? (entry.value as never) : undefined,
          }));
      },
      setQuery: (ref, args, value, options) => {
        const entry = find(ref, args, options);
        if (entry === undefined || entry.includes.has(layer.mutationId)) return;
        entry.value = value;
        entry.loaded = true;
      },
    };
    try {
      layer.update(store, layer.args);
    } catch (error) {
      // A throwing update must not take the live queries down with it.
      console.error("svc: an optimistic update threw; it is skipped", error);
    }
  }
}
