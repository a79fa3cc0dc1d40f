/**
 * Builds the dashboard into `dist/index.js`, the module `@svc/dashboard`
 * exports: `dashboardAssets`, every file as a string with its content type,
 * for `createWorker` to serve at `/_svc/dashboard/` (no asset binding, no
 * KV: the files ride inside the worker bundle). esbuild bundles and minifies
 * in well under a second, so `npm test` and `npm start` run this every time.
 *
 * Asset URLs in index.html are absolute under `/_svc/dashboard/` (client
 * routes like `/_svc/dashboard/users/u1` load the same index.html) and carry
 * a content hash query, so a deploy never mixes a new index.html with a
 * cached old script.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const UI = path.join(ROOT, "ui");
const DIST = path.join(ROOT, "dist");
const BASE = "/_svc/dashboard/";

interface Asset {
  name: string;
  body: string;
  contentType: string;
}

const BUILD_OPTIONS = {
  bundle: true,
  minify: true,
  write: false,
  format: "esm",
  target: ["es2022", "chrome111", "firefox113", "safari16.4"],
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
} satisfies BuildOptions;

/** The script's files, and which of them the first screen needs before it can run. */
interface Script {
  files: Asset[];
  /** The chunks `app.js` imports statically (directly or through each other): preloaded by index.html. */
  firstLoad: string[];
}

/**
 * The script: `app.js` (what the users screen needs) plus a chunk per screen
 * or dialog the UI loads with `import()` and chunks of the code they share,
 * so the first load stays small as screens are added. Chunks are named by
 * content hash (`chunk-<hash>.js`): a deploy never serves an old chunk to a
 * new app.js.
 */
async function bundleScript(): Promise<Script> {
  const outdir = "dist-build";
  const result = await build({
    ...BUILD_OPTIONS,
    absWorkingDir: ROOT,
    entryPoints: [path.join(UI, "main.tsx")],
    outdir,
    splitting: true,
    entryNames: "chunk-[hash]",
    chunkNames: "chunk-[hash]",
    metafile: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const outputs = result.metafile.outputs;
  const main = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === "ui/main.tsx");
  if (main === undefined) throw new Error("esbuild produced no script for ui/main.tsx");
  const nameOf = (output: string) => (output === main ? "app.js" : path.relative(outdir, output));
  const firstLoad = new Set<string>();
  const visit = (output: string) => {
    for (const imported of outputs[output]?.imports ?? []) {
      if (imported.kind !== "import-statement" || firstLoad.has(imported.path)) continue;
      firstLoad.add(imported.path);
      visit(imported.path);
    }
  };
  visit(main);
  return {
    files: result.outputFiles
      .filter((file) => file.path.endsWith(".js"))
      .map((file) => ({
        name: nameOf(path.relative(ROOT, file.path)),
        body: file.text,
        contentType: "text/javascript; charset=utf-8",
      })),
    firstLoad: [...firstLoad].map(nameOf),
  };
}

async function bundleStyles(): Promise<string> {
  const result = await build({ ...BUILD_OPTIONS, entryPoints: [path.join(UI, "styles.css")] });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error("esbuild produced nothing for styles.css");
  return file.text;
}

function fingerprint(body: string): string {
  return createHash("sha256").update(body).digest("hex").slice(0, 10);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

const started = performance.now();
const script = await bundleScript();
const assets: Asset[] = [
  ...script.files,
  {
    name: "app.css",
    body: await bundleStyles(),
    contentType: "text/css; charset=utf-8",
  },
  {
    name: "icon.svg",
    body: await readFile(path.join(UI, "icon.svg"), "utf8"),
    contentType: "image/svg+xml",
  },
];
let html = (await readFile(path.join(UI, "index.html"), "utf8")).replace(
  "    %modulepreload%\n",
  script.firstLoad
    .map((name) => `    <link rel="modulepreload" href="${BASE}${name}" />\n`)
    .join(""),
);
for (const asset of assets) {
  html = html.replaceAll(`%${asset.name}%`, `${BASE}${asset.name}?v=${fingerprint(asset.body)}`);
}
if (/%[\w.]+%/.test(html)) throw new Error("index.html names an asset the build does not make");
assets.unshift({ name: "index.html", body: html, contentType: "text/html; charset=utf-8" });

const files = Object.fromEntries(
  assets.map((asset) => [asset.name, { body: asset.body, contentType: asset.contentType }]),
);
const sizes = assets.map((asset) => ({
  name: asset.name,
  raw: Buffer.byteLength(asset.body),
  gzip: gzipSync(asset.body, { level: 9 }).byteLength,
}));

await rm(DIST, { recursive: true, force: true });
await mkdir(path.join(DIST, "files"), { recursive: true });
await writeFile(
  path.join(DIST, "index.js"),
  "// Generated by packages/dashboard/scripts/build.ts: do not edit.\n" +
    `export const dashboardAssets = Object.freeze({ files: Object.freeze(${JSON.stringify(files)}) });\n`,
);
for (const asset of assets) await writeFile(path.join(DIST, "files", asset.name), asset.body);
await writeFile(path.join(DIST, "sizes.json"), `${JSON.stringify(sizes, null, 2)}\n`);

const firstLoad = new Set(["index.html", "app.js", "app.css", "icon.svg", ...script.firstLoad]);
const sum = (list: typeof sizes) =>
  list.reduce((total, size) => ({ raw: total.raw + size.raw, gzip: total.gzip + size.gzip }), {
    raw: 0,
    gzip: 0,
  });
const first = sum(sizes.filter((size) => firstLoad.has(size.name)));
const later = sizes.filter((size) => !firstLoad.has(size.name));
console.log(
  `@svc/dashboard built in ${Math.round(performance.now() - started)} ms: first load ${firstLoad.size} files ` +
    `${kib(first.raw)} (gzip ${kib(first.gzip)}); ${later.length} chunks loaded when needed ` +
    `${kib(sum(later).raw)} (gzip ${kib(sum(later).gzip)})`,
);
