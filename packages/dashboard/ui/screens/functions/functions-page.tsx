import { useMemo, useState } from "preact/hooks";
import type { ProcedureInfo } from "../../api/data.ts";
import type { MetricsWindow } from "../../api/log-types.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { PageHeader } from "../../components/page-header.tsx";
import { RichText } from "../../components/rich-text.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { SchemaView } from "../api/schema-view.tsx";
import { FunctionsMetrics } from "./functions-metrics.tsx";
import { ProcedureBadges } from "./procedure-badges.tsx";
import { RunProcedure } from "./run-procedure.tsx";

/** Procedures whose path contains the filter (case-insensitive). */
function matching(functions: ProcedureInfo[], filter: string): ProcedureInfo[] {
  const needle = filter.trim().toLowerCase();
  return needle === ""
    ? functions
    : functions.filter((info) => info.path.toLowerCase().includes(needle));
}

/**
 * Every procedure of the app, public and internal (from the function
 * registry, `GET /_svc/admin/data/functions`), with its kind, exposure and
 * validators; the chosen one can be run in a shard as a user, anonymously or
 * as the service identity, with arguments from a form generated from its
 * validators. Above them, each function's calls, errors and latency from the
 * call records.
 */
export function FunctionsPage(props: {
  path: string | null;
  shard: string;
  window: MetricsWindow;
}) {
  const data = useDataApi();
  const loaded = useLoad((signal) => data.functions(signal), []);
  const [filter, setFilter] = useState("");
  return (
    <div class="page page-wide">
      <PageHeader
        title="Functions"
        subtitle="Every procedure of the app. Run one in a shard as a user, anonymously or as the service."
      />
      <FunctionsMetrics window={props.window} path={props.path} shard={props.shard} />
      <LoadView loaded={loaded} label="Loading procedures…">
        {({ functions }) => (
          <Functions
            functions={functions}
            filter={filter}
            onFilter={setFilter}
            path={props.path}
            shard={props.shard}
          />
        )}
      </LoadView>
    </div>
  );
}

function Functions(props: {
  functions: ProcedureInfo[];
  filter: string;
  onFilter: (filter: string) => void;
  path: string | null;
  shard: string;
}) {
  const shown = useMemo(
    () => matching(props.functions, props.filter),
    [props.functions, props.filter],
  );
  const chosen = props.functions.find((info) => info.path === props.path);
  if (props.functions.length === 0) {
    return (
      <Empty title="This app has no procedures">Add some under svc/ and run svc codegen.</Empty>
    );
  }
  return (
    <div class="api-layout">
      <aside class="api-index" aria-label="Procedures">
        <SearchField
          label="Filter procedures"
          placeholder="Filter procedures"
          value={props.filter}
          onInput={props.onFilter}
        />
        <ul class="procedure-index">
          {shown.map((info) => (
            <li key={info.path}>
              <Link
                href={hrefOf({ page: "functions", path: info.path, shard: props.shard })}
                class={info.path === props.path ? "active" : undefined}
                aria-current={info.path === props.path ? "page" : undefined}
              >
                <span class="mono procedure-path">{info.path}</span>
                <ProcedureBadges info={info} />
              </Link>
            </li>
          ))}
        </ul>
      </aside>
      <div class="api-body">
        {chosen === undefined ? (
          <Empty title={props.path === null ? "Pick a procedure" : `No procedure ${props.path}`}>
            Public procedures are what clients call; internal ones only run from the server (and
            from here).
          </Empty>
        ) : (
          <Procedure key={chosen.path} info={chosen} shard={props.shard} />
        )}
      </div>
    </div>
  );
}

function Procedure(props: { info: ProcedureInfo; shard: string }) {
  const { info } = props;
  return (
    <article class="card operation" aria-labelledby="procedure-title">
      <header class="operation-header">
        <h2 id="procedure-title" class="operation-path mono">
          {info.path}
        </h2>
        <ProcedureBadges info={info} />
      </header>
      {info.summary ? <p class="operation-summary">{info.summary}</p> : null}
      <RichText text={info.description ?? ""} class="muted" />
      <div class="operation-block">
        <h3>Arguments</h3>
        <SchemaView schema={info.args} document={{}} />
      </div>
      {info.output ? (
        <div class="operation-block">
          <h3>Result</h3>
          <SchemaView schema={info.output} document={{}} />
        </div>
      ) : null}
      <RunProcedure info={info} shard={props.shard} />
    </article>
  );
}
