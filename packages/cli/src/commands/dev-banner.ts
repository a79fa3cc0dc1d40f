import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** One line of the banner; one with a probe is shown only when that path answers other than 404. */
interface BannerEntry {
  label: string;
  text: string;
  probe?: string;
}

/**
 * The app's first REST query (a GET, so probing it changes nothing), from its
 * generated OpenAPI document, or `null` when it has none.
 */
async function firstRestQuery(appDir: string): Promise<string | null> {
  const file = path.join(appDir, "svc", "_generated", "openapi.json");
  if (!existsSync(file)) return null;
  try {
    const document = JSON.parse(await readFile(file, "utf8")) as {
      paths?: Record<string, Record<string, unknown>>;
    };
    const found = Object.entries(document.paths ?? {}).find(
      ([, operations]) => "get" in operations,
    );
    return found?.[0] ?? null;
  } catch {
    // An unreadable document only leaves the REST line out.
    return null;
  }
}

async function answers(origin: string, probe: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}${probe}`, { redirect: "manual" });
    await response.body?.cancel();
    return response.status !== 404;
  } catch {
    return false;
  }
}

/**
 * The lines `svc dev` prints once the app answers: only URLs that answer
 * (the API template has no page at `/`; an app without the dashboard has
 * none at `/_svc/dashboard/`), then the local admin token. RPC and the app's
 * REST queries are always served by `createWorker`; the others are probed
 * (one GET each, which the console shows as calls).
 *
 * @example
 * ```ts
 * for (const line of await bannerLines("http://127.0.0.1:8787", ".", token)) console.log(line);
 * ```
 */
export async function bannerLines(
  origin: string,
  appDir: string,
  adminToken: string | undefined,
): Promise<string[]> {
  const entries: BannerEntry[] = [
    { label: "app", text: `${origin}/`, probe: "/" },
    { label: "RPC", text: `POST ${origin}/_svc/rpc` },
  ];
  const rest = await firstRestQuery(appDir);
  if (rest !== null) {
    entries.push({
      label: "REST",
      text: `GET ${origin}${rest} (all: svc/_generated/openapi.json)`,
    });
  }
  entries.push({
    label: "dashboard",
    text: `${origin}/_svc/dashboard/`,
    probe: "/_svc/dashboard/",
  });
  const shown = await Promise.all(
    entries.map((entry) => entry.probe === undefined || answers(origin, entry.probe)),
  );
  const lines = entries
    .filter((_, index) => shown[index])
    .map((entry) => `  ${entry.label.padEnd(12)} ${entry.text}`);
  lines.push(
    `  ${"admin token".padEnd(12)} ${adminToken ?? "SVC_ADMIN_TOKEN is not set in .dev.vars"}`,
  );
  return ["", ...lines, ""];
}
