import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { RESULTS_FILE, type Results, renderReport } from "./report.ts";

/**
 * `npm run bench:render -w bench`: rewrites BENCHMARKS.md from the figures of
 * the last full run (bench/results.json) without measuring again, for when
 * only the report's wording changed.
 */
const results = JSON.parse(await readFile(RESULTS_FILE, "utf8")) as Results;
const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
await writeFile(file, renderReport(results));
console.error(`wrote ${file} from ${RESULTS_FILE}`);
