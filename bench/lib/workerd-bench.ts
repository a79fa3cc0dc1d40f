import { spawn } from "node:child_process";

const MARKER = "SVC_BENCH_RESULT ";

/**
 * Runs a package's workerd benchmark (`vitest run -c vitest.bench.config.ts`
 * in `cwd`, under `@cloudflare/vitest-plugin`) and answers the JSON of its
 * `SVC_BENCH_RESULT {json}` line; a failed run or no such line rejects with
 * the end of its output.
 *
 * @example
 * ```ts
 * const result = await runWorkerdBench<AdminResult>("packages/auth", { USERS: "1000000" }, "admin");
 * ```
 */
export function runWorkerdBench<T>(
  cwd: string,
  env: Record<string, string>,
  name: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["vitest", "run", "-c", "vitest.bench.config.ts"], {
      cwd,
      env: { ...process.env, FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      // The line may follow the reporter's colour codes: find the marker anywhere in it.
      const line = output.split("\n").find((text) => text.includes(MARKER));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${name} bench failed (exit ${code}):\n${output.slice(-4000)}`));
        return;
      }
      resolve(JSON.parse(line.slice(line.indexOf(MARKER) + MARKER.length)) as T);
    });
  });
}
