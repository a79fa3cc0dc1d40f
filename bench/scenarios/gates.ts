import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures } from "../lib/load.ts";

/** The same REST read without gates, behind the rate-limit gate, and with identity from a session cookie. */
export interface GatesResult {
  figures: LoadFigures[];
  rateLimitCost: number;
  identityCost: number;
}

export async function measureGates(log: (line: string) => void): Promise<GatesResult> {
  const app = await startBenchApp();
  try {
    const { body: seeded } = await postJson(`${app.url}/_svc/rpc?shardKey=bench`, {
      path: "rows:seed",
      args: {},
    });
    const rowId = (seeded as { value: string }).value;
    const { response } = await postJson(
      `${app.url}/api/auth/sign-up/email`,
      { email: "bench@example.com", password: "a long password", name: "Bench" },
      { origin: app.url },
    );
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const url = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const figures = await compare(
      [
        { name: "no gates", url, headers: { cookie, "x-bench-variant": "plain" } },
        { name: "rate-limit gate", url, headers: { cookie, "x-bench-variant": "ratelimit" } },
        {
          name: "identity from session cookie",
          url,
          headers: { cookie, "x-bench-variant": "identity" },
        },
      ],
      undefined,
      log,
    );
    const [plain, limited, identity] = figures as [LoadFigures, LoadFigures, LoadFigures];
    return {
      figures,
      rateLimitCost: 1 - limited.requestsPerSecond / plain.requestsPerSecond,
      identityCost: 1 - identity.requestsPerSecond / plain.requestsPerSecond,
    };
  } finally {
    await app.stop();
  }
}
