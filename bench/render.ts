import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { RESULTS_FILE, type Results, renderReport, withKeptPart } from "./report.ts";

/**
 * `npm run bench:render -w bench`: rewrites BENCHMARKS.md from the figures of
 * the last full run (bench/results.json) without measuring again, for when
 * only the report's wording changed. The release test's part is kept, as a
 * bench run keeps it.
 */
const results = JSON.parse(await readFile(RESULTS_FILE, "utf8")) as Results;
const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
const previous = await readFile(file, "utf8").catch(() => "");
await writeFile(file, withKeptPart(renderReport(results), previous));
console.error(`wrote ${file} from ${RESULTS_FILE}`);
