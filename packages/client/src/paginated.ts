import type { SvcClientError } from "./client-error.ts";
import type { LiveStore, QueryState, QueryWatch } from "./live-store.ts";

/** Where a paginated query stands: what `loadMore` can do now. */
export type PaginationStatus = "LoadingFirstPage" | "CanLoadMore" | "LoadingMore" | "Exhausted";

/** A paginated query as a component sees it: every loaded row, live. */
export interface PaginatedState<T> {
  readonly results: T[];
  readonly status: PaginationStatus;
  readonly isLoading: boolean;
  /** The first failing page's error; the rows of the other pages stay. */
  readonly error: SvcClientError | undefined;
}

/** A handle on a paginated live query (see {@link PaginatedQuery}). */
export interface PaginatedWatch<T> {
  getSnapshot(): PaginatedState<T>;
  subscribe(listener: () => void): () => void;
  /** Loads `numItems` more rows after the last page; `false` when it cannot now. */
  loadMore(numItems: number): boolean;
}

/** What `.paginate()` answers. */
interface PageResult {
  page: unknown[];
  isDone: boolean;
  continueCursor: string;
}

interface PaginationOpts {
  cursor: string | null;
  numItems: number;
  endCursor?: string;
}

interface Page {
  opts: PaginationOpts;
  watch: QueryWatch<PageResult>;
  /** The page before it was pinned: shown until the pinned one loads (no flicker). */
  previous: QueryWatch<PageResult> | undefined;
  stops: (() => void)[];
}

/**
 * A paginated query whose every page stays live. Each page is its own live
 * query with `paginationOpts`; when the next page loads, the last page is
 * pinned to its end (`endCursor`), so an insert or delete inside it grows or
 * shrinks that page and never drops a row into a gap between pages
 * (Convex's design). The query must pass `args.paginationOpts` straight to
 * `.paginate()` (see `paginationOptsValidator`).
 *
 * @example
 * ```ts
 * const notes = client.watchPaginatedQuery(api.notes.page, {}, { initialNumItems: 20 });
 * notes.subscribe(() => render(notes.getSnapshot().results));
 * notes.loadMore(20);
 * ```
 */
export class PaginatedQuery<T> implements PaginatedWatch<T> {
  readonly #store: LiveStore;
  readonly #path: string;
  readonly #args: Record<string, unknown>;
  readonly #shardKey: string | undefined;
  readonly #pages: Page[] = [];
  readonly #listeners = new Set<() => void>();
  #seen: readonly QueryState<PageResult>[] = [];
  #snapshot: PaginatedState<T> | undefined;

  constructor(
    store: LiveStore,
    path: string,
    args: Record<string, unknown>,
    options: { initialNumItems: number; shardKey?: string | undefined },
  ) {
    this.#store = store;
    this.#path = path;
    this.#args = args;
    this.#shardKey = options.shardKey;
    this.#pages.push(this.#page({ cursor: null, numItems: options.initialNumItems }, undefined));
  }

  // Arrow functions: `useSyncExternalStore` and the like call these unbound.
  readonly getSnapshot = (): PaginatedState<T> => {
    const states = this.#pages.map((page) => this.#shown(page));
    if (
      this.#snapshot !== undefined &&
      states.length === this.#seen.length &&
      states.every((state, index) => state === this.#seen[index])
    ) {
      return this.#snapshot;
    }
    this.#seen = states;
    this.#snapshot = summarize<T>(states);
    return this.#snapshot;
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) for (const page of this.#pages) this.#start(page);
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      for (const page of this.#pages) for (const stop of page.stops.splice(0)) stop();
    };
  };

  readonly loadMore = (numItems: number): boolean => {
    const last = this.#pages.at(-1)!;
    const state = last.watch.getSnapshot();
    if (state.status !== "success" || state.value.isDone) return false;
    const cursor = state.value.continueCursor;
    const pinned = this.#page({ ...last.opts, endCursor: cursor }, last.watch);
    const next = this.#page({ cursor, numItems }, undefined);
    for (const stop of last.stops.splice(0)) stop();
    this.#pages.splice(this.#pages.length - 1, 1, pinned, next);
    if (this.#listeners.size > 0) {
      this.#start(pinned);
      this.#start(next);
    }
    this.#notify();
    return true;
  };

  #page(opts: PaginationOpts, previous: QueryWatch<PageResult> | undefined): Page {
    const watch = this.#store.watch<PageResult>(
      this.#path,
      { ...this.#args, paginationOpts: opts },
      this.#shardKey,
    );
    return { opts, watch, previous, stops: [] };
  }

  #start(page: Page): void {
    page.stops.push(page.watch.subscribe(() => this.#onPage(page)));
    if (page.previous !== undefined) page.stops.push(page.previous.subscribe(() => this.#notify()));
  }

  #onPage(page: Page): void {
    // The pinned page arrived: the old one is no longer shown, nor watched.
    if (page.previous !== undefined && page.watch.getSnapshot().status !== "loading") {
      page.previous = undefined;
      for (const stop of page.stops.splice(1)) stop();
    }
    this.#notify();
  }

  #shown(page: Page): QueryState<PageResult> {
    const state = page.watch.getSnapshot();
    if (state.status === "loading" && page.previous !== undefined) {
      return page.previous.getSnapshot();
    }
    return state;
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

function summarize<T>(states: readonly QueryState<PageResult>[]): PaginatedState<T> {
  const results: T[] = [];
  let error: SvcClientError | undefined;
  for (const state of states) {
    if (state.status === "success") results.push(...(state.value.page as T[]));
    else if (state.status === "error") error ??= state.error;
  }
  const first = states[0]!;
  const last = states.at(-1)!;
  const status: PaginationStatus =
    first.status === "loading"
      ? "LoadingFirstPage"
      : last.status === "loading"
        ? "LoadingMore"
        : last.status === "success" && last.value.isDone
          ? "Exhausted"
          : last.status === "error"
            ? "Exhausted"
            : "CanLoadMore";
  return {
    results,
    status,
    isLoading: status === "LoadingFirstPage" || status === "LoadingMore",
    error,
  };
}
