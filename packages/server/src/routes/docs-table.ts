import { ERROR_STATUS } from "../errors/error-codes.ts";
import { partsOf } from "../values/parts.ts";
import type { AnyValidator } from "../values/validator.ts";
import { schemaNameOf } from "./contract/named.ts";
import { isRawBody, isValidatorAnswer, type RouteGroup, type RouteSpec } from "./contract/route.ts";
import { typeText } from "./contract/type-text.ts";

function queryText(spec: RouteSpec): string {
  const shape = spec.query?.shape ?? {};
  const fields = Object.entries(shape).map(([name, field]) => {
    const type = typeText(field);
    return `${name}${field.isOptional ? "" : "!"}=${type === "string" ? "" : type.replaceAll('"', "").replaceAll(" | ", "|")}`;
  });
  return fields.length === 0 ? "" : `\`?${fields.join("&")}\``;
}

function bodyText(spec: RouteSpec): string {
  if (spec.body === undefined) return "";
  if (isRawBody(spec.body)) {
    const types = Object.entries(spec.body.content)
      .map(([type, validator]) => `\`${type}\`: \`${typeText(validator)}\``)
      .join(" or ");
    return `${spec.body.description}: ${types}`;
  }
  return `\`${typeText(spec.body as AnyValidator)}\``;
}

function answerText(spec: RouteSpec): string {
  const status = spec.status !== undefined && spec.status !== 200 ? `${spec.status} ` : "";
  const answer = spec.answer;
  if (isValidatorAnswer(answer)) return `\`${status}${typeText(answer)}\``;
  if (answer.kind === "file")
    return `${answer.description} (${Object.keys(answer.content)
      .map((type) => `\`${type}\``)
      .join(", ")})`;
  return answer.description;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * The endpoint table of a route group in Markdown, one row per route:
 * method, path, what it does, query and body, answer, the statuses of its
 * own errors, the audit action and the capability it needs. Generated
 * between markers in the docs, so the docs cannot drift from the contract.
 *
 * @example
 * ```ts
 * const table = routesMarkdownTable(adminAuthRoutes);
 * ```
 */
export function routesMarkdownTable(group: RouteGroup): string {
  const rows = Object.values(group.routes).map((spec) => {
    const input = [queryText(spec), bodyText(spec)].filter(Boolean).join("; body ");
    const errors = [...new Set((spec.errors ?? []).map((code) => `${ERROR_STATUS[code]} ${code}`))];
    return [
      spec.method,
      `\`${spec.path}\``,
      spec.summary,
      input,
      answerText(spec),
      errors.join(", "),
      spec.audit ? `\`${spec.audit}\`` : "",
      spec.requires ? `\`${spec.requires}\`` : "",
    ]
      .map(cell)
      .join(" | ");
  });
  return [
    "| Method | Path | What | Query / body | Answer | Its own errors | Audited as | Needs |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/**
 * Named schemas written as TypeScript types for the docs, one `type Name =`
 * each, an object's fields one per line with their description as a
 * comment: the "Shapes" of a surface, generated so they cannot drift.
 *
 * @example
 * ```ts
 * namedTypesBlock([adminUser, adminSession]); // "type User = {\n  id: string;\n  …};\n\ntype Session = …"
 * ```
 */
export function namedTypesBlock(validators: readonly AnyValidator[]): string {
  return validators
    .map((validator) => {
      const name = schemaNameOf(validator);
      if (name === undefined) throw new Error("svc: namedTypesBlock takes named validators only");
      const parts = partsOf(validator);
      const about = validator.description === undefined ? "" : `// ${validator.description}\n`;
      if (parts.kind !== "object") return `${about}type ${name} = ${typeText(validator, true)};`;
      const fields = Object.entries(parts.shape).map(([key, field]) => {
        const comment = field.description === undefined ? "" : ` // ${field.description}`;
        return `  ${key}${field.isOptional ? "?" : ""}: ${typeText(field)};${comment}`;
      });
      return `${about}type ${name} = {\n${fields.join("\n")}\n};`;
    })
    .join("\n\n");
}
