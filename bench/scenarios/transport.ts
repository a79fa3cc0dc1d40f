import path from "node:path";
import { startDevServer } from "@svc/cli";
import { compare, type LoadFigures } from "../lib/load.ts";

/** REST vs RPC vs a hand-written Hono route, each reading the same kind of row from a Durable Object's SQLite. */
export interface TransportResult {
  figures: LoadFigures[];
  restVsRpc: number;
  restVsHandWritten: number;
}

const APP = path.resolve(import.meta.dirname, "../app");

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function measureTransports(log: (line: string) => void): Promise<TransportResult> {
  const app = await startDevServer({ appDir: APP });
  try {
    const { value: rowId } = (await postJson(`${app.url}/_svc/rpc?shardKey=bench`, {
      path: "rows:seed",
      args: {},
    })) as { value: string };
    const plainId = (await postJson(`${app.url}/hono/seed`, {})) as string;
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
        { name: "hand-written Hono → DO", url: `${app.url}/hono/row/${plainId}` },
      ],
      undefined,
      log,
    );
    const [rest, rpc, hono] = figures as [LoadFigures, LoadFigures, LoadFigures];
    return {
      figures,
      restVsRpc: rest.requestsPerSecond / rpc.requestsPerSecond,
      restVsHandWritten: rest.requestsPerSecond / hono.requestsPerSecond,
    };
  } finally {
    await app.stop();
  }
}
