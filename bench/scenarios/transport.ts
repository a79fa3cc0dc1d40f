import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, DEFAULT_PLAN, type LoadFigures, medianRatio } from "../lib/load.ts";
import { workerdCpuMs } from "../lib/workerd-cpu.ts";

/** REST vs RPC vs a hand-written Hono route, each reading the same kind of row from a Durable Object's SQLite. */
export interface TransportResult {
  figures: LoadFigures[];
  restVsRpc: number;
  restVsHandWritten: number;
}

export async function measureTransports(log: (line: string) => void): Promise<TransportResult> {
  const app = await startBenchApp();
  try {
    const { body: seeded } = await postJson(`${app.url}/_svc/rpc?shardKey=bench`, {
      path: "rows:seed",
      args: {},
    });
    const rowId = (seeded as { value: string }).value;
    const { body: plainId } = await postJson(`${app.url}/hono/seed`, {});
    const figures = await compare(
      [
        { name: "svc REST (GET)", url: `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}` },
        {
          name: "svc RPC",
          method: "POST",
          url: `${app.url}/_svc/rpc?shardKey=bench`,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ path: "rows:get", args: { id: rowId } }),
        },
        { name: "hand-written Hono → DO", url: `${app.url}/hono/row/${plainId as string}` },
      ],
      { ...DEFAULT_PLAN, cpuProbe: workerdCpuMs },
      log,
    );
    const [rest, rpc, hono] = figures as [LoadFigures, LoadFigures, LoadFigures];
    return {
      figures,
      restVsRpc: medianRatio(rest, rpc),
      restVsHandWritten: medianRatio(rest, hono),
    };
  } finally {
    await app.stop();
  }
}
