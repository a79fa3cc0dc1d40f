import { useState } from "preact/hooks";
import type { TableInfo } from "../../api/data.ts";
import { controlOf, type FieldControl, jsonOfTyped, typedOfJson } from "../../lib/field-values.ts";
import { navigate } from "../../lib/navigation.tsx";
import { type DataBrowse, DEFAULT_BROWSE, hrefOf } from "../../lib/routes.ts";

const CREATION_INDEX = "by_creation_time";

/** The form's state: every value as typed. */
interface FormState {
  index: string;
  eq: string[];
  gte: string;
  lte: string;
  order: "" | "asc" | "desc";
  filters: { field: string; value: string }[];
  search: string;
  viewAs: "" | "user" | "anonymous" | "service";
  user: string;
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function formOf(browse: DataBrowse): FormState {
  const eq = parsed(browse.eq);
  const filter = parsed(browse.filter);
  const viewAs =
    browse.as === ""
      ? ""
      : browse.as === "anonymous" || browse.as === "service"
        ? browse.as
        : "user";
  return {
    index: browse.index,
    eq: Array.isArray(eq) ? eq.map((value) => typedOfJson(JSON.stringify(value))) : [],
    gte: typedOfJson(browse.gte),
    lte: typedOfJson(browse.lte),
    order: browse.order,
    filters:
      filter !== null && typeof filter === "object" && !Array.isArray(filter)
        ? Object.entries(filter).map(([field, value]) => ({
            field,
            value: typedOfJson(JSON.stringify(value)),
          }))
        : [],
    search: browse.search,
    viewAs,
    user: viewAs === "user" ? browse.as : "",
  };
}

/** Fields a filter or range may name: the table's, then the system fields. */
function fieldNames(table: TableInfo): string[] {
  return [...table.fields.map((field) => field.name), "_id", "_creationTime"];
}

function controlFor(table: TableInfo, field: string): FieldControl {
  if (field === "_creationTime") return "number";
  if (field === "_id") return "string";
  const info = table.fields.find((candidate) => candidate.name === field);
  return info === undefined ? "json" : controlOf(info.schema);
}

function browseOf(table: TableInfo, form: FormState): DataBrowse {
  const index = table.indexes.find((candidate) => candidate.name === form.index);
  const keys = [...(index?.fields ?? []), "_creationTime"];
  const eq: string[] = [];
  for (const [position, text] of form.eq.entries()) {
    const field = keys[position];
    if (text === "" || field === undefined || position >= keys.length - 1) break;
    eq.push(jsonOfTyped(controlFor(table, field), text));
  }
  const rangeField = keys[eq.length] ?? "_creationTime";
  const filters = form.filters.filter((row) => row.field !== "");
  const browse: DataBrowse = {
    index: index === undefined || index.name === CREATION_INDEX ? "" : index.name,
    eq: eq.length > 0 ? `[${eq.join(",")}]` : "",
    gte: form.gte === "" ? "" : jsonOfTyped(controlFor(table, rangeField), form.gte),
    lte: form.lte === "" ? "" : jsonOfTyped(controlFor(table, rangeField), form.lte),
    order: form.order,
    filter:
      filters.length > 0
        ? `{${filters.map((row) => `${JSON.stringify(row.field)}:${jsonOfTyped(controlFor(table, row.field), row.value)}`).join(",")}}`
        : "",
    search: "",
    as: form.viewAs === "user" ? form.user.trim() : form.viewAs,
  };
  if (form.search.trim() === "") return browse;
  // A search answers by relevance: no index range and no order go with it.
  return { ...browse, index: "", eq: "", gte: "", lte: "", order: "", search: form.search };
}

/**
 * The browse of a table as a form: words to search (when the table has a
 * search index; the index range and order then do not apply), an index (or
 * creation time), values for its leading fields, a range on the next key,
 * the order, field filters (served by an index when one matches, else checked
 * row by row), and whom to view as. "Apply" puts it in the URL, which loads
 * the rows.
 */
export function BrowseControls(props: { shard: string; table: TableInfo; browse: DataBrowse }) {
  const { table } = props;
  const [form, setForm] = useState<FormState>(() => formOf(props.browse));
  const index = table.indexes.find(
    (candidate) => candidate.name === (form.index || CREATION_INDEX),
  );
  const indexFields = index?.fields ?? [];
  const rangeField = indexFields[form.eq.filter((text) => text !== "").length] ?? "_creationTime";
  const update = (patch: Partial<FormState>) => setForm({ ...form, ...patch });
  // A table's first search index serves the search box (the API's default too).
  const searchIndex = table.searchIndexes[0];
  const searching = form.search.trim() !== "";
  const go = (browse: DataBrowse) =>
    navigate(hrefOf({ page: "data", shard: props.shard, table: table.name, browse }), {
      replace: false,
    });

  return (
    <form
      class="browse-form"
      aria-label="Browse"
      onSubmit={(event) => {
        event.preventDefault();
        go(browseOf(table, form));
      }}
    >
      {searchIndex !== undefined ? (
        <div class="filters">
          <label class="field field-grow">
            <span class="field-label">
              Search <span class="muted">words of {searchIndex.searchField}</span>
            </span>
            <input
              class="input"
              type="search"
              value={form.search}
              maxLength={1000}
              onInput={(event) => update({ search: event.currentTarget.value })}
              autocomplete="off"
              spellcheck={false}
            />
          </label>
        </div>
      ) : null}
      <div class="filters">
        <label class="field field-wide">
          <span class="field-label">Index</span>
          <select
            class="input"
            disabled={searching}
            value={form.index || CREATION_INDEX}
            onChange={(event) =>
              update({
                index:
                  event.currentTarget.value === CREATION_INDEX ? "" : event.currentTarget.value,
                eq: [],
                gte: "",
                lte: "",
              })
            }
          >
            {table.indexes.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
                {candidate.fields.length > 0 ? ` (${candidate.fields.join(", ")})` : ""}
              </option>
            ))}
          </select>
        </label>
        {indexFields.map((field, position) => (
          <label key={field} class="field">
            <span class="field-label">
              {field} <span class="muted">equals</span>
            </span>
            <input
              class="input"
              value={form.eq[position] ?? ""}
              disabled={searching || (position > 0 && (form.eq[position - 1] ?? "") === "")}
              onInput={(event) => {
                const eq = [...form.eq];
                eq[position] = event.currentTarget.value;
                update({ eq });
              }}
              autocomplete="off"
            />
          </label>
        ))}
        <label class="field">
          <span class="field-label">
            {rangeField} <span class="muted">from</span>
          </span>
          <input
            class="input"
            value={form.gte}
            disabled={searching}
            onInput={(event) => update({ gte: event.currentTarget.value })}
            autocomplete="off"
          />
        </label>
        <label class="field">
          <span class="field-label">
            {rangeField} <span class="muted">to</span>
          </span>
          <input
            class="input"
            value={form.lte}
            disabled={searching}
            onInput={(event) => update({ lte: event.currentTarget.value })}
            autocomplete="off"
          />
        </label>
        <label class="field">
          <span class="field-label">Order</span>
          <select
            class="input"
            value={form.order || "asc"}
            disabled={searching}
            onChange={(event) =>
              update({ order: event.currentTarget.value === "desc" ? "desc" : "" })
            }
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </label>
      </div>

      <fieldset class="filter-rows">
        <legend class="field-label">Filters</legend>
        {form.filters.map((row, position) => (
          <div key={position} class="filter-row">
            <label class="field">
              <span class="sr-only">Filter {position + 1} field</span>
              <select
                class="input"
                value={row.field}
                onChange={(event) => {
                  const filters = [...form.filters];
                  filters[position] = { ...row, field: event.currentTarget.value };
                  update({ filters });
                }}
              >
                {fieldNames(table).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <span aria-hidden="true">=</span>
            <label class="field field-grow">
              <span class="sr-only">Filter {position + 1} value</span>
              <input
                class="input"
                value={row.value}
                onInput={(event) => {
                  const filters = [...form.filters];
                  filters[position] = { ...row, value: event.currentTarget.value };
                  update({ filters });
                }}
                autocomplete="off"
              />
            </label>
            <button
              type="button"
              class="btn btn-small btn-ghost"
              aria-label={`Remove filter ${position + 1}`}
              onClick={() =>
                update({ filters: form.filters.filter((_, index) => index !== position) })
              }
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          class="btn btn-small"
          onClick={() =>
            update({
              filters: [...form.filters, { field: fieldNames(table)[0] ?? "_id", value: "" }],
            })
          }
        >
          Add filter
        </button>
      </fieldset>

      <div class="filters view-as">
        <label class="field field-wide">
          <span class="field-label">View as</span>
          <select
            class="input"
            value={form.viewAs}
            onChange={(event) =>
              update({ viewAs: event.currentTarget.value as FormState["viewAs"] })
            }
          >
            <option value="">Operator (every row)</option>
            <option value="user">A user…</option>
            <option value="anonymous">Anonymous</option>
            <option value="service">Service</option>
          </select>
        </label>
        {form.viewAs === "user" ? (
          <label class="field field-grow">
            <span class="field-label">User id or email</span>
            <input
              class="input"
              value={form.user}
              required
              onInput={(event) => update({ user: event.currentTarget.value })}
              autocomplete="off"
              spellcheck={false}
            />
          </label>
        ) : null}
        <div class="actions browse-actions">
          <button
            type="button"
            class="btn"
            onClick={() => {
              setForm(formOf(DEFAULT_BROWSE));
              go(DEFAULT_BROWSE);
            }}
          >
            Reset
          </button>
          <button type="submit" class="btn btn-primary">
            Apply
          </button>
        </div>
      </div>
    </form>
  );
}
