import { randomUUID } from "node:crypto";
import { request } from "node:http";
import type { Socket } from "node:net";

/** An answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Bodies at least this large ask first (`Expect: 100-continue`), as curl does. */
const ASK_FIRST_BYTES = 64 * 1024;
/**
 * How long a body that asked first waits for `100 Continue` before it is sent
 * anyway. workerd sends it as soon as the worker reads the body, and answers
 * a refusal without it, so only a server that never answers waits this long.
 * It was 1 s: on a loaded machine a 413 came later than that, the body was
 * already on its way, and the reset lost the answer again ("socket hang up").
 */
const CONTINUE_WAIT_MS = 5_000;

/**
 * Sends exactly these bytes with `node:http`, on a connection of its own:
 * any method (TRACE included), a path that is not normalised (`/a/../b`,
 * `%2F`), raw body bytes. Fails if no answer arrives within `timeoutMs` — a
 * hang is a failure, not a wait — and names the request it failed on.
 *
 * A large body goes with `Expect: 100-continue`: a server that refuses it
 * on its headers (413) answers before the body is sent. Written at once, the
 * body could still be on its way when the server answered and closed the
 * connection, and the reset lost the answer ("socket hang up").
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
    const askFirst = options.body !== undefined && options.body.length >= ASK_FIRST_BYTES;
    const req = request(
      {
        hostname,
        port,
        method: options.method,
        path: options.path,
        headers: askFirst ? { ...options.headers, expect: "100-continue" } : options.headers,
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
    if (!askFirst) {
      if (options.body !== undefined) req.write(options.body);
      req.end();
      return;
    }
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      req.end(options.body);
    };
    req.on("continue", send);
    req.on("response", (res) => {
      if (sent) return;
      // Answered without the body: it is never sent, and the connection closes once read.
      sent = true;
      res.on("end", () => req.destroy());
    });
    setTimeout(send, CONTINUE_WAIT_MS).unref();
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
