import type { ArgsOf, OptimisticUpdate, OutputOf, PublicRef } from "@svc/client";
import { useMemo } from "react";
import { useSvcClient } from "./context.ts";

/** Options of {@link useMutation} and {@link useAction}. */
export interface CallHookOptions {
  /** The shard to call. Default: the client's. */
  shardKey?: string;
}

type CallArgs<Ref> =
  Record<string, never> extends ArgsOf<Ref> ? [args?: ArgsOf<Ref>] : [args: ArgsOf<Ref>];

/** The function {@link useMutation} answers: call it to run the mutation. */
export interface ReactMutation<Ref extends PublicRef<"mutation">> {
  (...args: CallArgs<Ref>): Promise<OutputOf<Ref>>;
  /**
   * The same mutation with an optimistic update: live queries show its
   * predicted effect at once, rebased on each server value until the server's
   * values include the mutation, and rolled back if it fails (the promise
   * then rejects with the `SvcClientError`).
   */
  withOptimisticUpdate(update: OptimisticUpdate<ArgsOf<Ref>>): ReactMutation<Ref>;
}

function bind<Ref extends PublicRef<"mutation">>(
  run: (args: unknown, update: OptimisticUpdate<ArgsOf<Ref>> | undefined) => Promise<unknown>,
  update: OptimisticUpdate<ArgsOf<Ref>> | undefined,
): ReactMutation<Ref> {
  const mutate = ((...args: unknown[]) => run(args[0], update)) as unknown as ReactMutation<Ref>;
  mutate.withOptimisticUpdate = (next) => bind(run, next);
  return mutate;
}

/**
 * A mutation to call from event handlers. Failures reject with an
 * `SvcClientError` carrying the server's problem details (`code`, `message`,
 * `issues`).
 *
 * @example
 * ```tsx
 * const addNote = useMutation(api.notes.add).withOptimisticUpdate((store, { text }) => {
 *   const notes = store.getQuery(api.notes.list, {});
 *   if (notes) store.setQuery(api.notes.list, {}, [{ _id: crypto.randomUUID(), text }, ...notes]);
 * });
 * await addNote({ text: "hello" });
 * ```
 */
export function useMutation<Ref extends PublicRef<"mutation">>(
  ref: Ref,
  options: CallHookOptions = {},
): ReactMutation<Ref> {
  const client = useSvcClient();
  const { shardKey } = options;
  return useMemo(() => {
    const run = (args: unknown, update: OptimisticUpdate<ArgsOf<Ref>> | undefined) =>
      client.mutation(ref, args as ArgsOf<Ref>, {
        ...(shardKey === undefined ? {} : { shardKey }),
        ...(update === undefined ? {} : { optimisticUpdate: update }),
      });
    return bind<Ref>(run, undefined);
  }, [client, ref, shardKey]);
}

/**
 * An action to call from event handlers (actions may call other services;
 * they have no optimistic updates, since they need not touch the database).
 *
 * @example
 * ```tsx
 * const wordCount = useAction(api.tools.wordCount);
 * const onClick = async () => setCount(await wordCount({}));
 * ```
 */
export function useAction<Ref extends PublicRef<"action">>(
  ref: Ref,
  options: CallHookOptions = {},
): (...args: CallArgs<Ref>) => Promise<OutputOf<Ref>> {
  const client = useSvcClient();
  const { shardKey } = options;
  return useMemo(
    () =>
      (...args: CallArgs<Ref>) =>
        client.action(ref, args[0] as ArgsOf<Ref>, shardKey === undefined ? {} : { shardKey }),
    [client, ref, shardKey],
  );
}
