import type { SvcClientError } from "@svc/client";
import type { Id } from "@svc/server";
import { describe, expectTypeOf, it } from "vitest";
import {
  useAction,
  useMutation,
  usePaginatedQuery,
  useQuery,
  useQueryState,
} from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";

/**
 * Type tests: the hooks are typed end to end from `svc/_generated/api.ts`.
 * They run in `tsc` (npm test's typecheck); the components are checked,
 * never rendered.
 */
type Note = { _id: Id<"notes">; _creationTime: number; owner: string; text: string };

/** Checked by tsc, never rendered. */
function Check() {
  expectTypeOf(useQuery(api.notes.list, {})).branded.toEqualTypeOf<Note[] | undefined>();
  expectTypeOf(useQuery(api.notes.count, "skip")).toEqualTypeOf<number | undefined>();
  // @ts-expect-error a mutation is not a query.
  useQuery(api.notes.add, { text: "x" });
  const state = useQueryState(api.notes.list, {});
  if (state.status === "error") expectTypeOf(state.error).toEqualTypeOf<SvcClientError>();
  const add = useMutation(api.notes.add);
  expectTypeOf(add({ text: "x" })).toEqualTypeOf<Promise<Id<"notes">>>();
  // @ts-expect-error `text` is a string.
  add({ text: 1 });
  useMutation(api.notes.add).withOptimisticUpdate((store, args) => {
    expectTypeOf(args.text).toEqualTypeOf<string>();
    expectTypeOf(store.getQuery(api.notes.list, {})).branded.toEqualTypeOf<Note[] | undefined>();
  });
  expectTypeOf(useAction(api.notes.shout)({ text: "x" })).toEqualTypeOf<Promise<string>>();
  const pages = usePaginatedQuery(api.notes.page, {}, { initialNumItems: 10 });
  expectTypeOf(pages.results).branded.toEqualTypeOf<Note[]>();
  return null;
}

describe("hook types from svc/_generated/api.ts", () => {
  it("type results and arguments, and refuse wrong ones", () => {
    expectTypeOf(Check).toBeFunction();
  });
});
