import path from "node:path";
import { type DevServer, startDevServer } from "@svc/cli";

/** The benchmark worker (`bench/app`) under `wrangler dev` with fresh state. */
export function startBenchApp(): Promise<DevServer> {
  return startDevServer({ appDir: path.resolve(import.meta.dirname, "../app") });
}

/** POSTs JSON and answers the parsed body, failing on any non-2xx. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ body: unknown; response: Response }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return { body: await response.json(), response };
}
