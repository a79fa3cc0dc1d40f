import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError } from "../../api/client.ts";
import { useApp } from "../../app-context.ts";
import { RichText } from "../../components/rich-text.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { resolveRef } from "../../lib/json-schema.ts";
import { navigate } from "../../lib/navigation.tsx";
import { type ApiReference, filterGroups, readApiReference } from "../../lib/openapi.ts";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { OperationCard } from "./operation-card.tsx";
import { SchemaView } from "./schema-view.tsx";

/** How long the filter waits for a pause in typing before it goes into the URL. */
const FILTER_DELAY_MS = 300;

/** The problem-details schema svc's generated documents share. */
const PROBLEM_REF = "#/components/schemas/Problem";

/** `null` when the app serves no document (404): an empty state, not an error. */
async function loadReference(
  load: (signal: AbortSignal) => Promise<unknown>,
  signal: AbortSignal,
): Promise<ApiReference | null> {
  try {
    return readApiReference(await load(signal));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The app's public REST surface as a readable reference, rendered from its
 * OpenAPI 3.1 document (`GET /_svc/admin/openapi`): operations grouped by
 * tag with a filter and an index, common parameters and error responses
 * once at the top. Rendered here rather than by a large third-party
 * renderer, to keep the dashboard small and its CSP strict.
 */
export function ApiPage(props: { filter: string }) {
  const { api } = useApp();
  const reference = useLoad(
    (signal) => loadReference((aborted) => api.restOpenApi({ signal: aborted }), signal),
    [],
  );
  return (
    <div class="page">
      <LoadView loaded={reference} label="Loading the API reference…">
        {(data) =>
          data === null ? (
            <>
              <header class="page-header">
                <h1 class="page-title">API reference</h1>
              </header>
              <Empty title="This app publishes no OpenAPI document">
                Pass <code>openApiSpec</code> (from <code>svc/_generated/openapi.ts</code>) to{" "}
                <code>createWorker</code> and expose procedures with{" "}
                <code>.expose(&#123; rest: true &#125;)</code>.
              </Empty>
            </>
          ) : (
            <Reference reference={data} filter={props.filter} />
          )
        }
      </LoadView>
    </div>
  );
}

function Reference(props: { reference: ApiReference; filter: string }) {
  const { reference } = props;
  const [query, setQuery] = useState(props.filter);
  // The filter lives in the URL, so reload and back keep it.
  useEffect(() => {
    if (query === props.filter) return;
    const timer = setTimeout(
      () => navigate(hrefOf({ page: "api", filter: query }), { replace: true }),
      FILTER_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [query, props.filter]);
  const groups = useMemo(() => filterGroups(reference.groups, query), [reference, query]);
  const problem = resolveRef(reference.document, PROBLEM_REF);
  return (
    <>
      <header class="page-header">
        <div>
          <h1 class="page-title">
            {reference.title} <span class="muted version">v{reference.version}</span>
          </h1>
          <p class="page-subtitle">
            {reference.operationCount} REST operations
            {reference.servers.length > 0 ? ` · server ${reference.servers.join(", ")}` : ""}
          </p>
        </div>
      </header>
      <RichText text={reference.description} class="lead" />
      <div class="api-layout">
        <aside class="api-index" aria-label="Operations">
          <SearchField
            label="Filter operations"
            placeholder="Filter operations"
            value={query}
            onInput={setQuery}
          />
          <nav>
            {groups.map((group) => (
              <div key={group.name} class="api-index-group">
                <div class="api-index-tag">{group.name}</div>
                <ul>
                  {group.operations.map((operation) => (
                    <li key={operation.anchor}>
                      <a href={`#${operation.anchor}`}>
                        <span
                          class={`method method-small method-${operation.method.toLowerCase()}`}
                        >
                          {operation.method}
                        </span>
                        <span class="mono">{operation.path.replace("/_svc/rest/", "/")}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </aside>
        <div class="api-body">
          {reference.securitySchemes.length > 0 || reference.sharedParameters.length > 0 ? (
            <section class="card api-common" aria-label="Common to every operation">
              {reference.securitySchemes.length > 0 ? (
                <>
                  <h2 class="section-title">Authentication</h2>
                  <ul class="plain-list">
                    {reference.securitySchemes.map((scheme) => (
                      <li key={scheme.name}>
                        <code>{scheme.name}</code> <span class="muted">{scheme.summary}</span>
                        {scheme.description ? ` — ${scheme.description}` : null}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {reference.sharedParameters.length > 0 ? (
                <>
                  <h2 class="section-title">Common parameters</h2>
                  <ul class="plain-list">
                    {reference.sharedParameters.map((parameter) => (
                      <li key={parameter.name}>
                        <code>{parameter.name}</code> <span class="muted">({parameter.in})</span>{" "}
                        {parameter.description}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {reference.sharedResponses.length > 0 ? (
                <details class="api-errors">
                  <summary class="api-errors-title">Errors (problem details)</summary>
                  <ul class="plain-list">
                    {reference.sharedResponses.map((response) => (
                      <li key={response.status}>
                        <span class="status status-error">
                          {response.status.replace(/^Error/, "")}
                        </span>{" "}
                        <RichText text={response.description} class="inline" />
                      </li>
                    ))}
                  </ul>
                  {problem ? (
                    <SchemaView schema={{ $ref: PROBLEM_REF }} document={reference.document} />
                  ) : null}
                </details>
              ) : null}
            </section>
          ) : null}
          {groups.length === 0 ? (
            <Empty
              title={
                query.trim() === ""
                  ? "No procedure is exposed over REST yet"
                  : "No operation matches the filter"
              }
            >
              {query.trim() === "" ? (
                <>
                  Mark procedures with <code>.expose(&#123; rest: true &#125;)</code> and run{" "}
                  <code>svc codegen</code>.
                </>
              ) : null}
            </Empty>
          ) : (
            groups.map((group) => (
              <section key={group.name} class="api-group" aria-label={group.name}>
                <h2 class="api-group-title">{group.name}</h2>
                <RichText text={group.description} class="muted" />
                {group.operations.map((operation) => (
                  <OperationCard
                    key={operation.anchor}
                    operation={operation}
                    document={reference.document}
                  />
                ))}
              </section>
            ))
          )}
        </div>
      </div>
    </>
  );
}
