import { exports } from "cloudflare:workers";

/** Who calls, in which shard. */
export interface CallOptions {
  user?: string;
  shardKey?: string;
}

/** A call's answer, the same shape whichever transport carried it. */
export interface CallResult {
  status: number;
  /** The procedure's value on 200 (RPC unwraps `{ value }`); `undefined` otherwise. */
  value: unknown;
  /** The problem details of an error answer; `undefined` on 200. */
  problem: { code: string; detail: string; errors?: unknown[] } | undefined;
  contentType: string | null;
  text: string;
}

/** Calls a procedure by path (`notes:add`) with arguments, over one transport. */
export type Call = (path: string, args: unknown, options?: CallOptions) => Promise<CallResult>;

const BASE = "http://svc.test";

function headersOf(options: CallOptions): Record<string, string> {
  return {
    "content-type": "application/json",
    ...(options.user ? { "x-test-user": options.user } : {}),
  };
}

const shardQuery = (options: CallOptions) =>
  options.shardKey ? `?shardKey=${encodeURIComponent(options.shardKey)}` : "";

async function resultOf(
  response: Response,
  unwrap: (body: unknown) => unknown,
): Promise<CallResult> {
  const text = await response.text();
  const body: unknown = text === "" ? undefined : JSON.parse(text);
  const ok = response.status === 200;
  return {
    status: response.status,
    value: ok ? unwrap(body) : undefined,
    problem: ok ? undefined : (body as CallResult["problem"]),
    contentType: response.headers.get("content-type"),
    text,
  };
}

/** `POST /_svc/rpc` with `{ path, args }`. */
export const overRpc: Call = async (path, args, options = {}) =>
  resultOf(
    await exports.default.fetch(`${BASE}/_svc/rpc${shardQuery(options)}`, {
      method: "POST",
      headers: headersOf(options),
      body: JSON.stringify({ path, args }),
    }),
    (body) => (body as { value: unknown }).value,
  );

/** `POST /_svc/rest/<namespace>/<name>` with the arguments as the JSON body. */
export const overRest: Call = async (path, args, options = {}) =>
  resultOf(
    await exports.default.fetch(
      `${BASE}/_svc/rest/${path.replace(":", "/")}${shardQuery(options)}`,
      {
        method: "POST",
        headers: headersOf(options),
        body: JSON.stringify(args ?? {}),
      },
    ),
    (body) => body,
  );
