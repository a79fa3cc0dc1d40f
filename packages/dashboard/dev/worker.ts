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
import { PREVIEW_TOKEN } from "./preview-token.ts";

const vars = env as { PREVIEW_ORGANIZATIONS?: string; PREVIEW_LATENCY_MS?: string };

export default createWorker({
  shardDO: "SHARD",
  functions: {},
  adminToken: { admin: PREVIEW_TOKEN },
  authAdmin: createPreviewAdmin({
    dashboard: dashboardAssets,
    organizations: vars.PREVIEW_ORGANIZATIONS !== "off",
    latencyMs: Number(vars.PREVIEW_LATENCY_MS ?? "0"),
  }),
  openApiSpec,
  fetch: (request) => Response.redirect(new URL("/_svc/dashboard/", request.url).toString(), 302),
});
