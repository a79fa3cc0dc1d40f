import { readFile } from "node:fs/promises";

/**
 * Which source file each line of an unminified esbuild bundle came from,
 * read from the `// path/to/file.ts` comment esbuild writes above each
 * module: answers a function that names a 0-based bundle line by its file,
 * shortened to the package (`server/src/worker/admission.ts`,
 * `hono/dist/hono-base.js`). A profile's frames then say where the code
 * lives rather than a line of a bundle that is deleted with the run.
 *
 * @example
 * ```ts
 * const sourceOf = await bundleSources(app.bundleFile);
 * sourceOf(1234); // "server/src/procedures/run.ts"
 * ```
 */
export async function bundleSources(bundleFile: string): Promise<(line: number) => string> {
  const lines = (await readFile(bundleFile, "utf8")).split("\n");
  const starts: { line: number; file: string }[] = [];
  lines.forEach((text, line) => {
    const match = /^\/\/ ((?:\.\.\/)*(?:node_modules\/)?[\w@.-][\w@./-]*\.[cm]?[jt]sx?)$/.exec(
      text,
    );
    if (match) starts.push({ line, file: shorten(match[1]!) });
  });
  return (line) => {
    let low = 0;
    let high = starts.length - 1;
    let found = "(bundle)";
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (starts[middle]!.line <= line) {
        found = starts[middle]!.file;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  };
}

/** `../../node_modules/.pnpm/x/node_modules/hono/dist/a.js` → `hono/dist/a.js`; `../../packages/server/src/a.ts` → `server/src/a.ts`. */
function shorten(file: string): string {
  const inModules = file.lastIndexOf("node_modules/");
  if (inModules >= 0) return file.slice(inModules + "node_modules/".length);
  return file.replace(/^(\.\.\/)+/, "").replace(/^packages\//, "");
}
