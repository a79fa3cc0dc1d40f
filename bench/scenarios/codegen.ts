import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { codegen } from "@svc/cli";
import { median } from "../lib/load.ts";

/** Codegen time for a generated app of `procedures` procedures (10 per module). */
export interface CodegenResult {
  procedures: number;
  modules: number;
  secondsMedian: number;
  runs: number[];
}

async function generateApp(dir: string, procedures: number): Promise<number> {
  const perModule = 10;
  const modules = Math.ceil(procedures / perModule);
  await mkdir(path.join(dir, "svc"), { recursive: true });
  await writeFile(
    path.join(dir, "wrangler.jsonc"),
    JSON.stringify({
      name: "codegen-bench",
      main: "src/worker.ts",
      compatibility_date: "2026-11-01",
      compatibility_flags: ["nodejs_compat"],
    }),
  );
  await writeFile(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "codegen-bench", version: "1.0.0", private: true, type: "module" }),
  );
  for (let m = 0; m < modules; m++) {
    const lines = ['import { mutation, query, v } from "@svc/server";', ""];
    for (let p = 0; p < perModule && m * perModule + p < procedures; p++) {
      const builder = p % 2 === 0 ? "query" : "mutation";
      lines.push(
        `export const fn${p} = ${builder}.input({ id: v.string(), count: v.optional(v.number()), tags: v.array(v.string()) })` +
          `.output(v.object({ ok: v.boolean() })).expose({ rest: true }).handler(() => ({ ok: true }));`,
      );
    }
    await writeFile(path.join(dir, "svc", `module${m}.ts`), `${lines.join("\n")}\n`);
  }
  return modules;
}

/** Times `svc codegen` (api.ts, functions.ts and both OpenAPI files) three times on a fresh generated app. */
export async function measureCodegen(
  procedures: number,
  log: (line: string) => void,
): Promise<CodegenResult> {
  // Inside the repo, so the generated app resolves @svc/server like a real one.
  const dir = await mkdtemp(path.join(import.meta.dirname, "../.tmp-codegen-"));
  try {
    const modules = await generateApp(dir, procedures);
    const runs: number[] = [];
    for (let run = 0; run < 3; run++) {
      await rm(path.join(dir, "svc/_generated"), { recursive: true, force: true });
      const started = performance.now();
      const result = await codegen({ appDir: dir, log: () => {} });
      const seconds = (performance.now() - started) / 1000;
      if (result.procedureCount !== procedures)
        throw new Error(`codegen found ${result.procedureCount} of ${procedures}`);
      runs.push(seconds);
      log(`    codegen run ${run + 1}: ${seconds.toFixed(2)} s`);
    }
    return { procedures, modules, secondsMedian: median(runs), runs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
