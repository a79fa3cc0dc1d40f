import { postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, medianRatio } from "../lib/load.ts";

/** REST vs RPC vs a hand-written Hono route, each reading the same kind of row from a Durable Object's SQLite. */
export interface TransportResult {
  figures: LoadFigures[];
  restVsRpc: number;
  restVsHandWritten: number;
}

export async function measureTransports(log: (line: string) => void): Promise<TransportResult> {
  const app = await startBenchApp();
  try {
    const rowId = await seedRow(app);
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
      undefined,
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
