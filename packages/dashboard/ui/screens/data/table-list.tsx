import type { TableInfo } from "../../api/data.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";

/**
 * The tables of the chosen shard with their stored row counts, and the
 * shard's SQL console last; the open one is marked.
 */
export function TableList(props: {
  shard: string;
  tables: TableInfo[];
  selected: string | null;
  sql: boolean;
}) {
  return (
    <nav class="table-tabs" aria-label="Tables">
      <ul>
        {props.tables.map((table) => (
          <li key={table.name}>
            <Link
              href={hrefOf({ page: "data", shard: props.shard, table: table.name })}
              class={table.name === props.selected ? "tab active" : "tab"}
              aria-current={table.name === props.selected ? "page" : undefined}
            >
              {table.name} <span class="count">{table.rows.toLocaleString("en")}</span>
            </Link>
          </li>
        ))}
        <li>
          <Link
            href={hrefOf({ page: "data", shard: props.shard, table: null, sql: true })}
            class={props.sql ? "tab active" : "tab"}
            aria-current={props.sql ? "page" : undefined}
          >
            SQL console
          </Link>
        </li>
      </ul>
    </nav>
  );
}
