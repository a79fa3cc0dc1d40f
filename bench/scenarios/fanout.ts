import { postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { median } from "../lib/load.ts";
import { workerdCpuMs } from "../lib/workerd-cpu.ts";

/** One subscriber count: push latency and CPU against the same clients polling once a second. */
export interface FanOutRow {
  subscribers: number;
  commits: number;
  /** From sending the mutation to each subscriber holding the new value. */
  pushP50Ms: number;
  pushP99Ms: number;
  /** workerd CPU per pushed update (one commit × one subscriber). */
  cpuMsPerPush: number;
  /** workerd CPU per second at one commit a second, pushing to every subscriber. */
  pushCpuMsPerSecond: number;
  /** The baseline: from the commit to each poller seeing it, polling `rows:get` over RPC every second. */
  pollP50Ms: number;
  pollP99Ms: number;
  /** workerd CPU per second of the same clients polling once a second. */
  pollCpuMsPerSecond: number;
}

/** The fan-out scenario: N = 100 and 1,000 subscribers of one row. */
export interface FanOutResult {
  rows: FanOutRow[];
}

const COMMITS = 10;
const POLL_SECONDS = 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Subscriber {
  ws: WebSocket;
  score: number;
  /** Resolved when the subscriber holds `score >= wanted`. */
  waitFor(wanted: number): Promise<number>;
}

async function subscribe(url: string, id: string): Promise<Subscriber> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/_svc/ws?shardKey=bench`, ["svc.v1"]);
  const waiters: { wanted: number; resolve: (at: number) => void }[] = [];
  const subscriber: Subscriber = {
    ws,
    score: -1,
    waitFor(wanted) {
      if (subscriber.score >= wanted) return Promise.resolve(performance.now());
      return new Promise((resolve) => waiters.push({ wanted, resolve }));
    },
  };
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as { value?: { score: number } };
    if (frame.value === undefined) return;
    subscriber.score = frame.value.score;
    const at = performance.now();
    for (const waiter of [...waiters]) {
      if (subscriber.score >= waiter.wanted) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(at);
      }
    }
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", reject, { once: true });
  });
  ws.send(JSON.stringify({ type: "subscribe", id: "row", path: "rows:get", args: { id } }));
  return subscriber;
}

async function bump(url: string, id: string): Promise<number> {
  const { body } = await postJson(`${url}/_svc/rpc?shardKey=bench`, {
    path: "rows:bump",
    args: { id },
  });
  return (body as { value: number }).value;
}

async function measureOne(
  url: string,
  id: string,
  subscribers: number,
  log: (line: string) => void,
): Promise<FanOutRow> {
  const clients: Subscriber[] = [];
  for (let i = 0; i < subscribers; i++) clients.push(await subscribe(url, id));
  const current = await bump(url, id);
  await Promise.all(clients.map((client) => client.waitFor(current)));

  const latencies: number[] = [];
  const cpuBefore = await workerdCpuMs();
  for (let commit = 0; commit < COMMITS; commit++) {
    const sent = performance.now();
    const score = await bump(url, id);
    const received = await Promise.all(clients.map((client) => client.waitFor(score)));
    for (const at of received) latencies.push(at - sent);
  }
  const pushCpu = (await workerdCpuMs()) - cpuBefore;
  for (const client of clients) client.ws.close();
  log(`  ${subscribers} subscribers: push p50 ${median(latencies).toFixed(1)} ms`);

  // Baseline: the same number of clients polling once a second, staggered; one commit a second.
  let stop = false;
  const seen: number[][] = Array.from({ length: subscribers }, () => []);
  const commitsAt = new Map<number, number>();
  const pollers = Array.from({ length: subscribers }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, (1000 * i) / subscribers));
    let last = -1;
    while (!stop) {
      const started = performance.now();
      const { body } = await postJson(`${url}/_svc/rpc?shardKey=bench`, {
        path: "rows:get",
        args: { id },
      });
      const score = (body as { value: { score: number } }).value.score;
      if (score > last) {
        if (last !== -1) seen[i]!.push(score, performance.now());
        last = score;
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))),
      );
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const pollCpuBefore = await workerdCpuMs();
  const pollStarted = performance.now();
  for (let second = 0; second < POLL_SECONDS; second++) {
    const score = await bump(url, id);
    commitsAt.set(score, performance.now());
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const pollCpu = (await workerdCpuMs()) - pollCpuBefore;
  const pollElapsed = (performance.now() - pollStarted) / 1000;
  stop = true;
  await Promise.all(pollers);
  const pollLatencies: number[] = [];
  for (const entries of seen) {
    for (let k = 0; k < entries.length; k += 2) {
      const committed = commitsAt.get(entries[k]!);
      if (committed !== undefined) pollLatencies.push(entries[k + 1]! - committed);
    }
  }
  const cpuMsPerPush = pushCpu / (COMMITS * subscribers);
  return {
    subscribers,
    commits: COMMITS,
    pushP50Ms: median(latencies),
    pushP99Ms: percentile(latencies, 99),
    cpuMsPerPush,
    pushCpuMsPerSecond: pushCpu / COMMITS,
    pollP50Ms: median(pollLatencies),
    pollP99Ms: percentile(pollLatencies, 99),
    pollCpuMsPerSecond: pollCpu / pollElapsed,
  };
}

/**
 * Live-query fan-out: N WebSocket subscribers of one row (`rows:get`), one
 * commit (`rows:bump`) at a time; the time until every subscriber holds the
 * new value and workerd's CPU per pushed update, against the baseline of the
 * same N clients polling the query over RPC once a second.
 */
export async function measureFanOut(log: (line: string) => void): Promise<FanOutResult> {
  const app = await startBenchApp();
  try {
    const id = await seedRow(app);
    const rows: FanOutRow[] = [];
    for (const subscribers of [100, 1000])
      rows.push(await measureOne(app.url, id, subscribers, log));
    return { rows };
  } finally {
    await app.stop();
  }
}
