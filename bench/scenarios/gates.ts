import { postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, medianRatio } from "../lib/load.ts";

/** The same REST read without gates, behind the rate-limit gate, and with identity from a session cookie. */
export interface GatesResult {
  figures: LoadFigures[];
  rateLimitCost: number;
  /** The same gate in the leased (approximate) mode. */
  rateLimitLeasedCost: number;
  identityCost: number;
  identityCookieCacheCost: number;
  identitySvcCacheCost: number;
}

export async function measureGates(log: (line: string) => void): Promise<GatesResult> {
  const app = await startBenchApp();
  try {
    const rowId = await seedRow(app);
    const account = { email: "bench@example.com", password: "a long password" };
    await postJson(
      `${app.url}/api/auth/sign-up/email`,
      { ...account, name: "Bench" },
      { origin: app.url },
    );
    // Signing in through the cookie-cache instance sets both cookies: the
    // session token (which every variant reads) and the signed session copy.
    const { response } = await postJson(`${app.url}/cached-auth/sign-in/email`, account, {
      origin: app.url,
    });
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
          name: "rate-limit gate, leased",
          url,
          headers: { cookie, "x-bench-variant": "ratelimit-leased" },
        },
        {
          name: "identity from session cookie",
          url,
          headers: { cookie, "x-bench-variant": "identity" },
        },
        {
          name: "identity, better-auth cookie cache",
          url,
          headers: { cookie, "x-bench-variant": "identity-cookie-cache" },
        },
        {
          name: "identity, svc cache (ttlMs 10 s)",
          url,
          headers: { cookie, "x-bench-variant": "identity-svc-cache" },
        },
      ],
      undefined,
      log,
    );
    const [plain, limited, leased, identity, cached, svcCached] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    return {
      figures,
      rateLimitCost: 1 - medianRatio(limited, plain),
      rateLimitLeasedCost: 1 - medianRatio(leased, plain),
      identityCost: 1 - medianRatio(identity, plain),
      identityCookieCacheCost: 1 - medianRatio(cached, plain),
      identitySvcCacheCost: 1 - medianRatio(svcCached, plain),
    };
  } finally {
    await app.stop();
  }
}
