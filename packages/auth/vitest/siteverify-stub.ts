import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One verification request as the stub received it. */
export interface ReceivedVerification {
  contentType: string;
  fields: Record<string, string>;
}

/**
 * A local HTTP server that speaks Turnstile's siteverify protocol (form or
 * JSON POST of `secret`, `response`, `remoteip`, `idempotency_key`). The token
 * (`response`) picks the behaviour:
 *
 * | token | reply |
 * |---|---|
 * | `pass` | 200, success, hostname `svc.test`, action `signup` |
 * | `fail` | 200, `success: false`, `invalid-input-response` |
 * | `slow` | waits `slowMs`, then as `pass` |
 * | `500` | 500 with a text body |
 * | `garbage` | 200 with a body that is not JSON |
 * | `malformed` | 200 JSON without `success` |
 * | anything else | as `fail` |
 *
 * `GET /received` lists every request received so far, so tests can assert
 * what was sent (e.g. `idempotency_key`, `remoteip`).
 */
export async function startSiteverifyStub(slowMs = 2_000): Promise<{
  url: string;
  close(): Promise<void>;
}> {
  const received: ReceivedVerification[] = [];
  const server: Server = createServer(async (request, response) => {
    if (request.method === "GET" && request.url === "/received") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(received));
      return;
    }
    const contentType = request.headers["content-type"] ?? "";
    const fields = parseFields(contentType, await readBody(request));
    received.push({ contentType, fields });
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const pass = () =>
      json(200, {
        success: true,
        "error-codes": [],
        challenge_ts: "2026-11-23T10:00:00.000Z",
        hostname: "svc.test",
        action: "signup",
        cdata: "",
      });
    switch (fields.response) {
      case "pass":
        return pass();
      case "slow":
        return setTimeout(pass, slowMs);
      case "500":
        response.writeHead(500, { "content-type": "text/plain" });
        return response.end("internal error");
      case "garbage":
        response.writeHead(200, { "content-type": "text/html" });
        return response.end("<html>definitely not json");
      case "malformed":
        return json(200, { ok: "yes" });
      default:
        return json(200, { success: false, "error-codes": ["invalid-input-response"] });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseFields(contentType: string, body: string): Record<string, string> {
  if (contentType.includes("application/json")) {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
  }
  return Object.fromEntries(new URLSearchParams(body));
}
