import { exports } from "cloudflare:workers";

/** Calls `POST /_svc/rpc` on the test worker. */
export async function rpc(
  path: string,
  args?: unknown,
  options: { user?: string; shardKey?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...options.headers,
  };
  if (options.user) headers["x-test-user"] = options.user;
  const url = `http://svc.test/_svc/rpc${options.shardKey ? `?shardKey=${encodeURIComponent(options.shardKey)}` : ""}`;
  return exports.default.fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ path, args }),
  });
}

/** Calls and unwraps `{ value }`, failing loudly on an error response. */
export async function rpcValue<T = unknown>(
  path: string,
  args?: unknown,
  options?: Parameters<typeof rpc>[2],
): Promise<T> {
  const response = await rpc(path, args, options);
  const body = (await response.json()) as { value: T };
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.value;
}
