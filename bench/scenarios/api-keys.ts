import { BENCH_ADMIN_TOKEN } from "../app/src/studio-admin.ts";
import { cookieHeaderOf, postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, medianRatio } from "../lib/load.ts";

/**
 * Issue 31's figure: the REST read of section 1 called with an API key,
 * against the same read with no identity and with a session cookie, in one
 * run. The key worker resolves with `apiKeyIdentity(auth, { otherwise:
 * sessionIdentity(auth) })` (the README's wiring); with and without its
 * per-key rate limit.
 */
export interface ApiKeysResult {
  figures: LoadFigures[];
  /** Throughput with an API key over the no-identity read (goal: ≥ 0.90). */
  apiKeyVsNoIdentity: number;
  /** The same with the per-key limit (`apiKeyRateLimit`, a bucket that never refuses). */
  apiKeyLimitedVsNoIdentity: number;
  /** The session cookie read over the no-identity read, for scale. */
  sessionVsNoIdentity: number;
}

export async function measureApiKeys(log: (line: string) => void): Promise<ApiKeysResult> {
  const app = await startBenchApp();
  try {
    const rowId = await seedRow(app);
    const account = { email: "bench-keys@example.com", password: "a long password" };
    const { response, body } = await postJson(
      `${app.url}/api/auth/sign-up/email`,
      { ...account, name: "Bench" },
      { origin: app.url },
    );
    const cookie = cookieHeaderOf(response);
    const userId = (body as { user: { id: string } }).user.id;
    const created = await fetch(`${app.url}/_svc/admin/auth/api-keys`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
        "content-type": "application/json",
        "x-bench-variant": "api-key",
      },
      body: JSON.stringify({ ownerUserId: userId, name: "bench", scopes: ["rows.readonly"] }),
    });
    if (created.status !== 201) throw new Error(`creating the key: ${await created.text()}`);
    const { key } = (await created.json()) as { key: string };
    const url = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const figures = await compare(
      [
        { name: "no identity", url, headers: { "x-bench-variant": "plain" } },
        {
          name: "identity from session cookie",
          url,
          headers: { cookie, "x-bench-variant": "identity" },
        },
        { name: "API key", url, headers: { "x-api-key": key, "x-bench-variant": "api-key" } },
        {
          name: "API key, per-key limit",
          url,
          headers: { "x-api-key": key, "x-bench-variant": "api-key-limited" },
        },
      ],
      undefined,
      log,
    );
    const [plain, session, apiKey, limited] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    return {
      figures,
      apiKeyVsNoIdentity: medianRatio(apiKey, plain),
      apiKeyLimitedVsNoIdentity: medianRatio(limited, plain),
      sessionVsNoIdentity: medianRatio(session, plain),
    };
  } finally {
    await app.stop();
  }
}
