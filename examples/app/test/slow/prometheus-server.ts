import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@svc/cli";

/** A real Prometheus (Debian's `prometheus` package) scraping one target. */
export interface RunningPrometheus {
  url: string;
  /** Answers an instant query's single value, or `undefined` while the series is absent. */
  value(query: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

/**
 * Starts `prometheus` scraping `target` (`http://host:port`) at
 * `metricsPath` every second with a bearer token, with its data in a
 * temporary folder, and waits until its HTTP API answers.
 *
 * @example
 * ```ts
 * const prometheus = await startPrometheus(app.url, "/_svc/admin/metrics", token);
 * await prometheus.value('sum(svc_calls_total{function="hello:ping"})');
 * ```
 */
export async function startPrometheus(
  target: string,
  metricsPath: string,
  bearer: string,
): Promise<RunningPrometheus> {
  const dir = await mkdtemp(path.join(tmpdir(), "svc-prometheus-"));
  const port = await freePort();
  const config = path.join(dir, "prometheus.yml");
  await writeFile(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: svc",
      `    metrics_path: ${metricsPath}`,
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${bearer}`,
      "    static_configs:",
      `      - targets: ["${new URL(target).host}"]`,
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(
    "prometheus",
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`prometheus exited with ${child.exitCode}:\n${log}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`prometheus did not become ready:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async value(query) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as {
        data: { result: { value: [number, string] }[] };
      };
      const [first] = body.data.result;
      return first === undefined ? undefined : Number(first.value[1]);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
