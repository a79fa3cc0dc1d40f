import { RichText } from "../../components/rich-text.tsx";
import { constraintsOf, type Schema, typeLabel } from "../../lib/json-schema.ts";
import type { OperationView, ParameterView } from "../../lib/openapi.ts";
import { SchemaView } from "./schema-view.tsx";
import { TryIt } from "./try-it.tsx";

function ParameterTable(props: { parameters: ParameterView[]; document: Schema }) {
  return (
    <table class="table table-compact">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">In</th>
          <th scope="col">Type</th>
          <th scope="col" class="hide-narrow">
            Description
          </th>
        </tr>
      </thead>
      <tbody>
        {props.parameters.map((parameter) => (
          <tr key={`${parameter.in}:${parameter.name}`}>
            <td>
              <code>{parameter.name}</code>
              {parameter.required ? <span class="required">required</span> : null}
            </td>
            <td>{parameter.in}</td>
            <td>
              <span class="type">{typeLabel(parameter.schema, props.document)}</span>
              {constraintsOf(parameter.schema).map((fact) => (
                <span key={fact} class="constraint">
                  {fact}
                </span>
              ))}
            </td>
            <td class="hide-narrow">{parameter.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function securityLabel(security: string[][]): string {
  if (security.length === 0) return "";
  const anonymous = security.some((requirement) => requirement.length === 0);
  const schemes = security
    .filter((requirement) => requirement.length > 0)
    .map((r) => r.join(" + "));
  if (schemes.length === 0) return "No sign-in needed";
  return `${anonymous ? "Sign-in optional" : "Sign-in required"}: ${schemes.join(" or ")}`;
}

/**
 * One operation as a reference card: method and path, what it does, the
 * procedure behind it, its own parameters (shared ones are listed once at
 * the top of the page), the body, and the success responses in full; error
 * responses are status codes pointing at the shared error list.
 */
export function OperationCard(props: { operation: OperationView; document: Schema }) {
  const { operation, document } = props;
  const own = operation.parameters.filter((parameter) => !parameter.shared);
  const shared = operation.parameters.filter((parameter) => parameter.shared);
  const successes = operation.responses.filter((response) => response.shared === undefined);
  const errors = operation.responses.filter((response) => response.shared !== undefined);
  const security = securityLabel(operation.security);
  return (
    <article
      id={operation.anchor}
      class="card operation"
      aria-labelledby={`${operation.anchor}-title`}
    >
      <header class="operation-header">
        <span class={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span>
        <h3 id={`${operation.anchor}-title`} class="operation-path mono">
          {operation.path}
        </h3>
        {operation.deprecated ? <span class="badge badge-warn">deprecated</span> : null}
      </header>
      {operation.summary ? <p class="operation-summary">{operation.summary}</p> : null}
      <p class="operation-meta muted small">
        {operation.procedure ? (
          <>
            procedure <code>{operation.procedure}</code>
            {operation.kind ? ` (${operation.kind})` : null}
          </>
        ) : null}
        {operation.procedure && security ? " · " : null}
        {security}
      </p>
      <RichText text={operation.description} class="muted" />

      {own.length > 0 ? (
        <div class="operation-block">
          <h4>Parameters</h4>
          <ParameterTable parameters={own} document={document} />
        </div>
      ) : null}
      {shared.length > 0 ? (
        <p class="muted small">
          Also accepts {shared.map((parameter) => `${parameter.name} (${parameter.in})`).join(", ")}
          : see common parameters.
        </p>
      ) : null}

      {operation.requestBody ? (
        <div class="operation-block">
          <h4>
            Request body <span class="muted small">{operation.requestBody.mediaType}</span>
            {operation.requestBody.required ? <span class="required">required</span> : null}
          </h4>
          <SchemaView schema={operation.requestBody.schema} document={document} />
        </div>
      ) : null}

      {successes.map((response) => (
        <div key={response.status} class="operation-block">
          <h4>
            <span class="status status-ok">{response.status}</span>{" "}
            <span class="muted small">{response.mediaType}</span>
          </h4>
          <RichText text={response.description} class="muted small" />
          {response.mediaType ? <SchemaView schema={response.schema} document={document} /> : null}
          {response.headers.length > 0 ? (
            <p class="muted small">
              Headers: {response.headers.map((header) => header.name).join(", ")}
            </p>
          ) : null}
        </div>
      ))}
      <TryIt operation={operation} document={document} />
      {errors.length > 0 ? (
        <div class="operation-block">
          <h4>Errors</h4>
          <div class="status-list">
            {errors.map((response) => (
              <span key={response.status} class="status status-error" title={response.description}>
                {response.status}
              </span>
            ))}
          </div>
        </div>
      ) : null}
    </article>
  );
}
