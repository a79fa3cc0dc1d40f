/**
 * DEV PREVIEW ONLY (`npm run preview --workspace packages/dashboard`): the
 * real `createWorker` (same CSP, same admin gate, same routing) serving the
 * built dashboard over an in-memory fake of the admin API. It exists to
 * design and screenshot the UI with realistic data; tests never use it.
 */

import { env } from "cloudflare:workers";
import { dashboardAssets } from "@svc/dashboard";
import { createWorker } from "@svc/server";
import { openApiSpec } from "../../../examples/app/svc/_generated/openapi.ts";
import { createPreviewAdmin } from "./preview-admin/index.ts";
import { seedPreviewData } from "./preview-admin/seed.ts";
import { functions, seedPreviewShards } from "./preview-data.ts";
import { PREVIEW_TOKEN } from "./preview-token.ts";

const vars = env as { PREVIEW_ORGANIZATIONS?: string; PREVIEW_LATENCY_MS?: string };

export { Shard } from "./preview-data.ts";

/** The fake users whose messages fill the preview shards (the seed is the same every time). */
const PREVIEW_AUTHORS = seedPreviewData()
  .users.slice(0, 3)
  .map((user) => user.id);

const preview = createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: { admin: PREVIEW_TOKEN },
  authAdmin: createPreviewAdmin({
    dashboard: dashboardAssets,
    organizations: vars.PREVIEW_ORGANIZATIONS !== "off",
    latencyMs: Number(vars.PREVIEW_LATENCY_MS ?? "0"),
  }),
  openApiSpec,
  fetch: (request) => Response.redirect(new URL("/_svc/dashboard/", request.url).toString(), 302),
});

/** The preview's first request fills the data studio's shards (as three of the fake users). */
export default {
  async fetch(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> {
    const own = (inner: Request) => preview.fetch(inner, env, ctx);
    await seedPreviewShards(own, new URL(request.url).origin, PREVIEW_TOKEN, PREVIEW_AUTHORS);
    return preview.fetch(request, env, ctx);
  },
};
