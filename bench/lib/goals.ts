/**
 * The goals BENCHMARKS.md judges figures against, in one place so a
 * section's verdict and the at-a-glance table of issues 32 and 29 can never
 * disagree.
 *
 * @example
 * ```ts
 * verdict(gates.identityCost <= GOALS.identityCost);
 * ```
 */
export const GOALS = {
  /** Issue 32: identity from a session cookie (the default), share of throughput lost. */
  identityCost: 0.2,
  /** Issue 32: the exact REST rate-limit gate, share of throughput lost. */
  exactLimitCost: 0.2,
  /** Issues 18 and 32: the leased gate, share of throughput lost, in every round. */
  leasedLimitCost: 0.05,
  /** Issue 32: REST over the hand-written Hono route, in every round (issue 18's was 0.90×). */
  restVsHandWritten: 0.95,
  /** REST over RPC (issue 8). */
  restVsRpc: 0.95,
  /** Issue 32: every admin list case at 1,000,000 users, p50 in ms. */
  adminCaseMs: 50,
  /** Issue 32: the admin overview at 1,000,000 users, p50 in ms. */
  adminOverviewMs: 100,
  /** Issue 32: sign-up through svc over plain better-auth. */
  signUpRatio: 0.97,
  /** Sign-in through svc over plain better-auth (issue 8). */
  signInRatio: 0.95,
  /** Issue 32: `npm test` in CI, seconds. */
  npmTestSeconds: 600,
  /** Issue 29: what recording costs the REST read's throughput. */
  recordingCost: 0.05,
  /** Issue 29: a dashboard log query's p50 in ms over {@link GOALS.logRecords} records. */
  logQueryMs: 50,
  /** Issue 29: records in the store when the log queries are timed. */
  logRecords: 1_000_000,
  /** Issue 32: users in D1 when the admin cases are timed. */
  adminUsers: 1_000_000,
} as const;

/**
 * The lowest per-round ratio of `target` to `baseline` (each round runs
 * every target back to back), for goals that must hold in every round; NaN
 * when either is missing.
 *
 * @example
 * ```ts
 * worstRoundRatio({ rounds: [90, 100] }, { rounds: [100, 100] }); // 0.9
 * ```
 */
export function worstRoundRatio(
  target?: { rounds: number[] },
  baseline?: { rounds: number[] },
): number {
  if (!target || !baseline) return Number.NaN;
  return Math.min(...target.rounds.map((value, round) => value / (baseline.rounds[round] ?? 0)));
}

/**
 * `12 %` for costs of 10 % or more, `5.3 %` below: the precision a throughput
 * cost on this machine deserves.
 *
 * @example
 * ```ts
 * percent(0.053); // "5.3 %"
 * ```
 */
export function percent(cost: number): string {
  return `${(cost * 100).toFixed(Math.abs(cost) < 0.1 ? 1 : 0)} %`;
}

/**
 * The fragment GitHub gives a Markdown heading (`## 2. Gate costs` →
 * `#2-gate-costs`), so a table can link to the section that explains a
 * figure.
 *
 * @example
 * ```ts
 * anchor("## 2. Gate costs"); // "#2-gate-costs"
 * ```
 */
export function anchor(heading: string): string {
  const text = heading
    .replace(/^#+\s*/, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
  return `#${text}`;
}

/** The headings of the sections the at-a-glance table links to. */
export const SECTION_TITLES = {
  transport: "## 1. REST vs RPC vs a hand-written route",
  gates: "## 2. Gate costs",
  auth: "## 3. Sign-up and sign-in",
  admin: "## 4. Admin at scale",
  observability: "## 12. Call records: recording cost, store writes, queries",
} as const;
