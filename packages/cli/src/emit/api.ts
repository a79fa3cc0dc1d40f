import type { ProcedureManifest } from "@svc/server/codegen";
import { GENERATED_HEADER, identifierFor, importPath } from "./header.ts";

interface Tree {
  [segment: string]: Tree | string;
}

function insert(tree: Tree, segments: readonly string[], leaf: string): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (rest.length === 0) {
    tree[head] = leaf;
    return;
  }
  const child = tree[head];
  const next: Tree = typeof child === "object" ? child : {};
  tree[head] = next;
  insert(next, rest, leaf);
}

function render(tree: Tree, indent: string): string {
  if (Object.keys(tree).length === 0) return "{}";
  const lines = Object.entries(tree).map(([key, value]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    return typeof value === "string"
      ? `${indent}  ${name}: ${value},`
      : `${indent}  ${name}: ${render(value, `${indent}  `)},`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * `_generated/api.ts`: typed references (`api.*` for public, `internal.*` for
 * internal procedures) with type-only imports, so clients in browsers and Node
 * can import it without pulling in server code; plus the `Register`
 * augmentation that types `ctx.db` against `schema.ts`.
 */
export function emitApi(manifest: readonly ProcedureManifest[], hasSchema: boolean): string {
  const namespaces = [
    ...new Set(manifest.map((entry) => entry.path.slice(0, entry.path.lastIndexOf(":")))),
  ];
  const publicTree: Tree = {};
  const internalTree: Tree = {};
  for (const entry of manifest) {
    const cut = entry.path.lastIndexOf(":");
    const namespace = entry.path.slice(0, cut);
    const name = entry.path.slice(cut + 1);
    const reference = `makeReference<typeof ${identifierFor(namespace)}.${name}>(${JSON.stringify(entry.path)}, ${JSON.stringify(entry.kind)}, ${JSON.stringify(entry.visibility)})`;
    insert(
      entry.visibility === "public" ? publicTree : internalTree,
      [...namespace.split("/"), name],
      reference,
    );
  }
  return [
    GENERATED_HEADER,
    'import { makeReference } from "@svc/server/references";',
    ...namespaces.map(
      (namespace) =>
        `import type * as ${identifierFor(namespace)} from ${JSON.stringify(importPath(namespace))};`,
    ),
    ...(hasSchema
      ? [
          'import type schema from "../schema.ts";',
          "",
          'declare module "@svc/server" {',
          "  interface Register {",
          "    schema: typeof schema;",
          "  }",
          "}",
        ]
      : []),
    "",
    "/** References to the public procedures, for the client and `ctx.run*`. */",
    `export const api = ${render(publicTree, "")};`,
    "",
    "/** References to the internal procedures, for `ctx.run*` only. */",
    `export const internal = ${render(internalTree, "")};`,
    "",
  ].join("\n");
}
