import {
  constraintsOf,
  isObject,
  propertiesOf,
  refName,
  resolveRef,
  type Schema,
  typeLabel,
} from "../../lib/json-schema.ts";

const MAX_DEPTH = 4;

function childObject(schema: Schema, document: Schema): Schema | undefined {
  const target = typeof schema.$ref === "string" ? resolveRef(document, schema.$ref) : schema;
  if (target === undefined) return undefined;
  if (target.type === "array" && isObject(target.items)) return childObject(target.items, document);
  return propertiesOf(target, document).length > 0 ? target : undefined;
}

/**
 * A schema as a readable tree: the type on top, then one row per property
 * (name, type, required, constraints, description), nested objects
 * indented. `$ref`s show their name and expand in place, a few levels deep
 * (deeper or recursive ones stay a name).
 */
export function SchemaView(props: {
  schema: Schema | undefined;
  document: Schema;
  depth?: number;
  seen?: readonly string[];
}) {
  const { schema, document } = props;
  const depth = props.depth ?? 0;
  const seen = props.seen ?? [];
  if (schema === undefined) return <span class="muted">any JSON value</span>;
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const object =
    depth < MAX_DEPTH && (ref === undefined || !seen.includes(ref))
      ? childObject(schema, document)
      : undefined;
  const properties = object ? propertiesOf(object, document) : [];
  const nextSeen = ref ? [...seen, ref] : seen;
  const description = typeof schema.description === "string" ? schema.description : "";
  return (
    <div class="schema">
      {depth === 0 ? (
        <div class="schema-type">
          <span class="type">{typeLabel(schema, document)}</span>
          {ref ? <span class="muted small"> ({refName(ref)})</span> : null}
          {constraintsOf(schema).map((fact) => (
            <span key={fact} class="constraint">
              {fact}
            </span>
          ))}
          {description ? <span class="muted"> — {description}</span> : null}
        </div>
      ) : null}
      {properties.length > 0 ? (
        <ul class="schema-properties">
          {properties.map((property) => {
            const nested = childObject(property.schema, document);
            const text =
              typeof property.schema.description === "string" ? property.schema.description : "";
            return (
              <li key={property.name} class="schema-property">
                <div class="schema-row">
                  <code class="property-name">{property.name}</code>
                  <span class="type">{typeLabel(property.schema, document)}</span>
                  {property.required ? <span class="required">required</span> : null}
                  {constraintsOf(property.schema).map((fact) => (
                    <span key={fact} class="constraint">
                      {fact}
                    </span>
                  ))}
                  {text ? <span class="muted property-description">{text}</span> : null}
                </div>
                {nested && depth + 1 < MAX_DEPTH ? (
                  <SchemaView
                    schema={property.schema}
                    document={document}
                    depth={depth + 1}
                    seen={nextSeen}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
