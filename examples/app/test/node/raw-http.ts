import { randomUUID } from "node:crypto";
import { request } from "node:http";
import type { Socket } from "node:net";

/** An answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends exactly these bytes with `node:http`, on a connection of its own:
 * any method (TRACE included), a path that is not normalised (`/a/../b`,
 * `%2F`), raw body bytes. Fails if no answer arrives within `timeoutMs` — a
 * hang is a failure, not a wait — and names the request it failed on.
 */
export function rawRequest(
  origin: string,
  options: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    timeoutMs?: number;
  },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        timeout: options.timeoutMs ?? 15_000,
        // A connection of its own: a kept-alive one that the server closes as it is reused
        // fails with "socket hang up" (Node 22's agent keeps idle sockets 5 s, as long as a
        // Node server keeps them open).
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(
        new Error(
          `no answer to ${options.method} ${options.path} within ${options.timeoutMs ?? 15_000} ms`,
        ),
      ),
    );
    req.on("error", (error) =>
      reject(new Error(`${options.method} ${options.path}: ${error.message}`, { cause: error })),
    );
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * A `GET /_svc/ws` WebSocket upgrade over raw HTTP (`svc.v1` offered; header
 * values go out as their latin-1 bytes, as a browser may send them): `101`
 * with the open socket, which the caller destroys when done, or the
 * refusal's status and body.
 */
export function rawUpgrade(
  origin: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; socket?: Socket }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      path: "/_svc/ws",
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": Buffer.from(randomUUID().slice(0, 16)).toString("base64"),
        "sec-websocket-protocol": "svc.v1",
        ...headers,
      },
    });
    req.on("upgrade", (_response, socket) => resolve({ status: 101, body: "", socket }));
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}
