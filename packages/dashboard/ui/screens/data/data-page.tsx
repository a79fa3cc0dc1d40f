import { useState } from "preact/hooks";
import type { TableInfo } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { PageHeader } from "../../components/page-header.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { type DataBrowse, DEFAULT_BROWSE } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ShardActions } from "./shard-actions.tsx";
import { ShardPicker } from "./shard-picker.tsx";
import { SqlConsole } from "./sql-console.tsx";
import { TableList } from "./table-list.tsx";
import { TableView } from "./table-view.tsx";

/**
 * The data studio: pick a shard (from the registry), a table of it, and
 * browse, edit and delete its documents, as the operator or as a chosen
 * caller, run SQL over a shard (read-only unless the operator confirms a
 * write), or delete the whole shard's data. The shard, table and browse
 * live in the URL, so reload, back and shared links keep them.
 */
export function DataPage(props: {
  shard: string | null;
  table: string | null;
  browse: DataBrowse | undefined;
  sql: boolean;
}) {
  // Bumped when a shard's data is deleted: the picker reloads without it.
  const [listVersion, setListVersion] = useState(0);
  return (
    <div class="page page-wide">
      <PageHeader title="Data" subtitle="Browse, edit and delete the documents of every shard." />
      <div class="data-layout">
        <aside class="data-aside" aria-label="Shards and tables">
          <ShardPicker key={listVersion} selected={props.shard} />
        </aside>
        <div class="data-main">
          {props.shard === null ? (
            <Empty title="Pick a shard">
              Each shard is one Durable Object with its own tables. Search the list by shard key.
            </Empty>
          ) : (
            <ShardData
              onDeleted={() => setListVersion((version) => version + 1)}
              shard={props.shard}
              table={props.table}
              browse={props.browse ?? DEFAULT_BROWSE}
              sql={props.sql}
            />
          )}
        </div>
      </div>
    </div>
  );
}

function ShardData(props: {
  shard: string;
  table: string | null;
  browse: DataBrowse;
  sql: boolean;
  onDeleted: () => void;
}) {
  const data = useDataApi();
  const tables = useLoad((signal) => data.tables(props.shard, signal), [props.shard]);
  return (
    <LoadView loaded={tables} label="Loading tables…">
      {({ tables: list }) => {
        const chosen: TableInfo | undefined = list.find((table) => table.name === props.table);
        return (
          <div class="shard-data">
            <ShardActions shard={props.shard} onDeleted={props.onDeleted} />
            <TableList shard={props.shard} tables={list} selected={props.table} sql={props.sql} />
            {props.sql ? (
              <SqlConsole key={props.shard} shard={props.shard} onWritten={tables.reload} />
            ) : props.table === null ? (
              <Empty title="Pick a table">The tables of this shard, from the app's schema.</Empty>
            ) : chosen === undefined ? (
              <Empty title={`No table ${props.table} in this shard's schema`} />
            ) : (
              <TableView
                key={`${props.shard}/${chosen.name}`}
                shard={props.shard}
                table={chosen}
                browse={props.browse}
                onChanged={tables.reload}
              />
            )}
          </div>
        );
      }}
    </LoadView>
  );
}
