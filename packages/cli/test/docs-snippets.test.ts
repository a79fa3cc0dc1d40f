import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every ```ts block of README.md and docs/*.md type-checks as a user would
 * write it (issue 13). Each snippet is a module of its own placed in the
 * example app's `src/`, or `svc/` when its first line says `// svc/…` (never
 * written to disk), so `../svc/_generated/*.ts`, `./_generated/api.ts`,
 * `../svc/schema.ts` and `./auth.ts` are the example's real files and `Env`
 * its bindings, under the example's compiler options. A block preceded by
 * `<!-- snippet: skip (reason) -->` is a fragment on purpose.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DOCS = ["README.md", ...readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)]
  .filter((file) => file.endsWith(".md"))
  .sort();

interface Snippet {
  id: string;
  doc: string;
  line: number;
  code: string;
}

const APP = path.join(ROOT, "examples/app");
/** A snippet headed `// svc/<file>.ts` is placed in `svc/` (its imports are written from there), others in `src/`. */
const fileOf = (snippet: Snippet) =>
  path.join(APP, /^\/\/ svc\//.test(snippet.code) ? "svc" : "src", `__snippet_${snippet.id}.ts`);

/**
 * The `Env` the docs' apps have, as `wrangler types` writes it for their
 * wrangler.jsonc and .dev.vars (the docs tell users to run it).
 */
const WRANGLER_TYPES = `declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    SHARD: DurableObjectNamespace;
    RATE_LIMITER: DurableObjectNamespace;
    RATE_LIMIT: DurableObjectNamespace;
    AUTH_SECRET: string;
    PUBLIC_URL: string;
    SVC_ADMIN_TOKEN: string;
    ADMIN_TOKEN_ALICE: string;
    ADMIN_TOKEN_CI: string;
    CAPTCHA_SECRET_KEY: string;
  }
}
interface Env extends Cloudflare.Env {}
`;

function snippetsOf(doc: string): Snippet[] {
  const lines = readFileSync(path.join(ROOT, doc), "utf8").split("\n");
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== "```ts") continue;
    const skipped =
      /<!-- snippet: skip/.test(lines[i - 1] ?? "") ||
      /<!-- snippet: skip/.test(lines[i - 2] ?? "");
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]?.trim() !== "```") end++;
    if (!skipped) {
      out.push({
        id: `${doc.replaceAll(/[^a-z0-9]/gi, "_")}_${start}`,
        doc,
        line: start,
        code: lines.slice(start, end).join("\n"),
      });
    }
    i = end;
  }
  return out;
}

function typeCheck(snippets: Snippet[]): Map<string, string[]> {
  const files = new Map<string, string>();
  for (const snippet of snippets) files.set(fileOf(snippet), `${snippet.code}\nexport {};\n`);
  files.set(path.join(APP, "src", "__snippet_env.d.ts"), WRANGLER_TYPES);
  const config = ts.readConfigFile(path.join(APP, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, APP);
  const options = { ...parsed.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = files.get(file);
    return text === undefined
      ? getSourceFile(file, language, onError, create)
      : ts.createSourceFile(file, text, language, true);
  };
  const program = ts.createProgram([...files.keys(), ...parsed.fileNames], options, host);
  const errors = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? "";
    const snippet = snippets.find((candidate) => file === fileOf(candidate));
    const key = snippet ? `${snippet.doc}:${snippet.line}` : file || "(global)";
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const line =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line
        : 0;
    errors.set(key, [...(errors.get(key) ?? []), `+${line}: ${message}`]);
  }
  return errors;
}

describe("documentation snippets", () => {
  it("type-check, every ```ts block of README.md and docs/", () => {
    const snippets = DOCS.flatMap(snippetsOf);
    expect(snippets.length).toBeGreaterThan(15);
    expect(Object.fromEntries(typeCheck(snippets))).toEqual({});
  }, 120_000);
});
