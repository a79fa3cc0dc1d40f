import { useState } from "preact/hooks";
import type { ShardEntry } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { Empty, ErrorNotice, Loading } from "../../components/states.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { useDebounced } from "./use-debounced.ts";

/** Shards per page of the picker. */
const SHARD_PAGE = 50;

/**
 * The shards the registry knows, searchable by key, newest pages on "Load
 * more". The chosen shard is marked as the current page.
 */
export function ShardPicker(props: { selected: string | null }) {
  const data = useDataApi();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const list = usePagedList<ShardEntry>(
    async (cursor, signal) => {
      const page = await data.shards({ search: query, cursor, limit: SHARD_PAGE }, signal);
      return { items: page.shards, nextCursor: page.nextCursor };
    },
    [query],
  );
  return (
    <section class="data-panel" aria-labelledby="shards-title">
      <h2 id="shards-title" class="section-title">
        Shards
      </h2>
      <SearchField
        label="Search shards by key"
        placeholder="Search shard keys"
        value={search}
        onInput={setSearch}
      />
      {list.first.error ? (
        <ErrorNotice error={list.first.error} onRetry={list.first.reload} compact />
      ) : list.first.data === undefined ? (
        <Loading label="Loading shards…" />
      ) : list.items.length === 0 ? (
        <Empty title={query === "" ? "No shard has data yet" : "No shard key matches"} />
      ) : (
        <ul class="pick-nav" aria-label="Shards">
          {list.items.map((entry) => (
            <li key={entry.key}>
              <Link
                href={hrefOf({ page: "data", shard: entry.key, table: null })}
                class={entry.key === props.selected ? "pick-link active" : "pick-link"}
                aria-current={entry.key === props.selected ? "page" : undefined}
                title={entry.key}
              >
                <span class="mono pick-label">{entry.key}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} label="More shards" />
    </section>
  );
}
