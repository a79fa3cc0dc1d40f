import { postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { compare, JUDGING_PLAN, type LoadFigures, medianRatio } from "../lib/load.ts";

/**
 * REST vs RPC vs a hand-written Hono route, each reading the same kind of row
 * from a Durable Object's SQLite; and the same REST read with call recording
 * off, so one run shows how much of REST's gap to the hand-written route is
 * recording and how much is the rest of the request path.
 */
export interface TransportResult {
  figures: LoadFigures[];
  restVsRpc: number;
  restVsHandWritten: number;
  /**
   * The REST read with recording off (`logs: false`) over the hand-written
   * route. Absent in results from before this target existed.
   */
  restRecordingOffVsHandWritten?: number;
  /** The REST read as shipped (recording on) over the same read with recording off. */
  restVsRecordingOff?: number;
}

/** The name of the recording-off target, which the report looks up. */
export const REST_RECORDING_OFF = "svc REST (GET), recording off";

export async function measureTransports(log: (line: string) => void): Promise<TransportResult> {
  const app = await startBenchApp();
  try {
    const rowId = await seedRow(app);
    const { body: plainId } = await postJson(`${app.url}/hono/seed`, {});
    const restUrl = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const figures = await compare(
      [
        { name: "svc REST (GET)", url: restUrl },
        {
          name: "svc RPC",
          method: "POST",
          url: `${app.url}/_svc/rpc?shardKey=bench`,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ path: "rows:get", args: { id: rowId } }),
        },
        { name: "hand-written Hono → DO", url: `${app.url}/hono/row/${plainId as string}` },
        // The same worker as the first target but `logs: false` (bench/app/src/worker.ts).
        { name: REST_RECORDING_OFF, url: restUrl, headers: { "x-bench-variant": "logs-off" } },
      ],
      { ...JUDGING_PLAN, cpuProbe: app.workerCpuMs, settle: app.settle },
      log,
    );
    const [rest, rpc, hono, restOff] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    return {
      figures,
      restVsRpc: medianRatio(rest, rpc),
      restVsHandWritten: medianRatio(rest, hono),
      restRecordingOffVsHandWritten: medianRatio(restOff, hono),
      restVsRecordingOff: medianRatio(rest, restOff),
    };
  } finally {
    await app.stop();
  }
}
