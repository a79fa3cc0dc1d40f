import { BENCH_ADMIN_TOKEN } from "../app/src/studio-admin.ts";
import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, median, medianRatio } from "../lib/load.ts";
import { seed } from "./rls.ts";

/** The data studio at scale: browsing a million documents, and "view as user" against the user's own read. */
export interface StudioResult {
  documents: number;
  seededSeconds: number;
  /** Rows per page in the paging figures (what the dashboard's grid asks for). */
  pageSize: number;
  /** Median latency (ms) of single requests through the admin route, one after another. */
  pagesMs: { name: string; p50: number; p90: number }[];
  /** `posts:mine` over REST as the user, against the same read through the studio as that user. */
  viewAs: LoadFigures[];
  /** p50 latency of "view as" over the user's own read (goal: ≤ 1.5). */
  viewAsLatencyRatio: number;
  /** Throughput of the user's own read over "view as" (goal: ≤ 1.5). */
  viewAsThroughputRatio: number;
}

const DOCUMENTS = 1_000_000;
const BATCH = 10_000;
const PAGE = 100;
const SAMPLES = 40;
const SHARD = "studio-1m";
const RLS_SHARD = "studio-rls";
const ADMIN = {
  "x-bench-variant": "studio",
  authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
};

type Page = { documents: { _creationTime: number }[]; nextCursor: string | null };

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Waits for the shard registry to list a shard (it reports off the request path). */
async function registered(url: string, key: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const response = await fetch(`${url}/_svc/admin/data/shards/${key}`, { headers: ADMIN });
    await response.arrayBuffer();
    if (response.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the registry never listed shard ${key}`);
}

async function latency(url: string): Promise<{ p50: number; p90: number }> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: ADMIN });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p90: times[Math.floor(times.length * 0.9)] ?? Number.NaN };
}

/**
 * The data studio (issue 28): a table of 1,000,000 documents browsed through
 * `GET /_svc/admin/data/shards/:key/tables/rows/documents`, first pages in
 * both orders and cursor pages from the middle and the end (each page seeks,
 * so a deep page should cost what the first does); then "view as user" on
 * the RLS scenario's kind of shard (50 own posts, 100,000 of other users,
 * a declarative rule) against that user's own `posts:mine` over REST, under
 * the same load side by side.
 */
export async function measureStudio(log: (line: string) => void): Promise<StudioResult> {
  const app = await startBenchApp();
  try {
    log(`  seeding ${DOCUMENTS.toLocaleString("en-US")} documents`);
    const started = Date.now();
    for (let from = 0; from < DOCUMENTS; from += BATCH) {
      await postJson(`${app.url}/_svc/rpc?shardKey=${SHARD}`, {
        path: "rows:fill",
        args: { count: BATCH, from },
      });
    }
    const seededSeconds = Math.round((Date.now() - started) / 1000);
    await registered(app.url, SHARD);
    const base = `${app.url}/_svc/admin/data/shards/${SHARD}/tables/rows/documents?limit=${PAGE}`;
    const oldest = await getJson<Page>(base, ADMIN);
    const newest = await getJson<Page>(`${base}&order=desc`, ADMIN);
    const first = oldest.documents[0]?._creationTime ?? 0;
    const last = newest.documents[0]?._creationTime ?? 0;
    const cursorAt = async (fraction: number) => {
      const at = first + (last - first) * fraction;
      const page = await getJson<Page>(`${base}&gte=${at}`, ADMIN);
      if (page.nextCursor === null) throw new Error("no cursor in the middle of the table");
      return `${base}&cursor=${encodeURIComponent(page.nextCursor)}`;
    };
    const targets = [
      { name: "first page, oldest first", url: base },
      { name: "first page, newest first", url: `${base}&order=desc` },
      { name: "cursor page at 50 %", url: await cursorAt(0.5) },
      { name: "cursor page at 99 %", url: await cursorAt(0.99) },
    ];
    const pagesMs: StudioResult["pagesMs"] = [];
    for (const target of targets) {
      const figures = await latency(target.url);
      pagesMs.push({ name: target.name, ...figures });
      log(`    ${target.name}: p50 ${figures.p50.toFixed(1)} ms, p90 ${figures.p90.toFixed(1)} ms`);
    }

    log("  seeding the view-as shard (100,000 foreign posts)");
    await seed(app.url, RLS_SHARD, "me", 50);
    for (let i = 0; i < 10; i++) await seed(app.url, RLS_SHARD, `other-${i}`, 10_000);
    await registered(app.url, RLS_SHARD);
    const eq = encodeURIComponent(JSON.stringify(["general"]));
    const viewAs = await compare(
      [
        {
          name: "the user's own read (posts:mine, REST)",
          url: `${app.url}/_svc/rest/posts/mine?shardKey=${RLS_SHARD}&channel=general`,
          headers: { "x-bench-variant": "header-identity", "x-bench-user": "me" },
        },
        {
          name: "the studio viewing as the user",
          url: `${app.url}/_svc/admin/data/shards/${RLS_SHARD}/tables/posts/documents?index=by_channel&eq=${eq}&order=desc&limit=20&asUser=me`,
          headers: ADMIN,
        },
      ],
      undefined,
      log,
    );
    const [own, studio] = viewAs as [LoadFigures, LoadFigures];
    return {
      documents: DOCUMENTS,
      seededSeconds,
      pageSize: PAGE,
      pagesMs,
      viewAs,
      viewAsLatencyRatio: studio.p50Ms / own.p50Ms,
      viewAsThroughputRatio: medianRatio(own, studio),
    };
  } finally {
    await app.stop();
  }
}
