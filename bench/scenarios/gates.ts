import {
  type BenchApp,
  cookieHeaderOf,
  postJson,
  seedRow,
  startBenchApp,
} from "../lib/bench-app.ts";
import { compare, JUDGING_PLAN, type LoadFigures, median, medianRatio } from "../lib/load.ts";

/** The same REST read without gates, behind the rate-limit gate, and with identity from a session cookie. */
export interface GatesResult {
  figures: LoadFigures[];
  rateLimitCost: number;
  /**
   * The exact gate decided in the worker (`decideIn: "worker"`), as every
   * gate was before 2026-12-06 (absent before then).
   */
  rateLimitInWorkerCost?: number;
  /** The same gate in the leased (approximate) mode. */
  rateLimitLeasedCost: number;
  /** The default: identities cached per isolate, checked against the revocation log. */
  identityCost: number;
  /**
   * better-auth's getSession on every call (`cache: false`; the default
   * before issue 32). Absent in results from before issue 32.
   */
  identityExactCost?: number;
  identityCookieCacheCost: number;
  /** {@link MANY_CALLERS} callers, each request a different one, under each identity option (absent before issue 32). */
  manyCallers?: { defaultCost: number; exactCost: number; ttlOneSecondCost: number };
  /**
   * Microseconds of the worker's workerd CPU one timer wake costs (an
   * awaited 0 ms timer less an awaited resolved promise): what an exact
   * decision waiting for its batch pays per look (absent before 2026-12-05).
   */
  timerWakeUs?: number;
}

/** Awaits per request of {@link timerWakeUs}, and its rounds (each runs both kinds). */
export const WAKES = { count: 2_000, rounds: 9 };

/**
 * The CPU of one timer wake in the worker's workerd: rounds of
 * {@link WAKES}`.count` awaited 0 ms timers and as many awaited resolved
 * promises, each inside one request (`GET /bench/timer-wakes`), the median
 * over rounds of the difference per await. The kinds take turns going first,
 * so neither always runs on the heap the other left.
 */
async function timerWakeUs(app: BenchApp): Promise<number> {
  const perAwait = async (kind: "timer" | "promise") => {
    const before = await app.workerCpuMs();
    const response = await fetch(`${app.url}/bench/timer-wakes?kind=${kind}&count=${WAKES.count}`);
    if (!response.ok)
      throw new Error(`timer-wakes ${kind}: ${response.status} ${await response.text()}`);
    return (((await app.workerCpuMs()) - before) * 1000) / WAKES.count;
  };
  const differences: number[] = [];
  for (let round = 0; round < WAKES.rounds; round++) {
    const order =
      round % 2 === 0 ? (["timer", "promise"] as const) : (["promise", "timer"] as const);
    const cost = { timer: 0, promise: 0 };
    for (const kind of order) cost[kind] = await perAwait(kind);
    differences.push(cost.timer - cost.promise);
  }
  return median(differences);
}

/**
 * Callers of the many-callers rows: at this machine's few hundred to a
 * thousand requests a second, each caller comes back about once or twice a
 * second, which is where a 1-second cache stops helping and a longer one,
 * kept honest by the revocation log, does not.
 */
export const MANY_CALLERS = 500;

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
    const cookie = cookieHeaderOf(response);
    const url = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const { body: seeded } = await postJson(`${app.url}/bench/seed-sessions?n=${MANY_CALLERS}`, {});
    const tokens = (seeded as { tokens: string[] }).tokens;
    let next = 0;
    const anotherCaller = () => ({ authorization: `Bearer ${tokens[next++ % tokens.length]}` });
    // Each caller once through the default resolver, as their first call of the day would.
    for (let start = 0; start < tokens.length; start += 16) {
      await Promise.all(
        tokens.slice(start, start + 16).map(async () => {
          const response = await fetch(url, {
            headers: { "x-bench-variant": "identity", ...anotherCaller() },
          });
          await response.arrayBuffer();
        }),
      );
    }
    const figures = await compare(
      [
        { name: "no gates", url, headers: { cookie, "x-bench-variant": "plain" } },
        { name: "rate-limit gate", url, headers: { cookie, "x-bench-variant": "ratelimit" } },
        {
          name: "rate-limit gate, decided in the worker",
          url,
          headers: { cookie, "x-bench-variant": "ratelimit-worker" },
        },
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
          name: "identity, getSession every call",
          url,
          headers: { cookie, "x-bench-variant": "identity-exact" },
        },
        {
          name: "identity, better-auth cookie cache",
          url,
          headers: { cookie, "x-bench-variant": "identity-cookie-cache" },
        },
        {
          name: `identity, ${MANY_CALLERS} callers`,
          url,
          headers: { "x-bench-variant": "identity" },
          makeHeaders: anotherCaller,
        },
        {
          name: `identity, ${MANY_CALLERS} callers, getSession every call`,
          url,
          headers: { "x-bench-variant": "identity-exact" },
          makeHeaders: anotherCaller,
        },
        {
          name: `identity, ${MANY_CALLERS} callers, 1 s cache without the log`,
          url,
          headers: { "x-bench-variant": "identity-ttl-1s" },
          makeHeaders: anotherCaller,
        },
      ],
      {
        ...JUDGING_PLAN,
        cpuProbe: app.workerCpuMs,
        settle: app.settle,
        // Rate-limit store calls, better-auth session reads and revocation log reads so far.
        counters: async () => (await fetch(`${app.url}/bench/counters`)).json(),
      },
      log,
    );
    const [
      plain,
      limited,
      limitedInWorker,
      leased,
      identity,
      exact,
      cookieCache,
      many,
      manyExact,
      manyTtl,
    ] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    const cost = (target: LoadFigures) => 1 - medianRatio(target, plain);
    return {
      figures,
      rateLimitCost: cost(limited),
      rateLimitInWorkerCost: cost(limitedInWorker),
      rateLimitLeasedCost: cost(leased),
      identityCost: cost(identity),
      identityExactCost: cost(exact),
      identityCookieCacheCost: cost(cookieCache),
      manyCallers: {
        defaultCost: cost(many),
        exactCost: cost(manyExact),
        ttlOneSecondCost: cost(manyTtl),
      },
      timerWakeUs: await timerWakeUs(app),
    };
  } finally {
    await app.stop();
  }
}
