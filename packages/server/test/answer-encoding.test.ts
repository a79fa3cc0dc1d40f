import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * The shard encodes a REST or RPC call's answer as JSON itself and sends the
 * text, one string instead of an object graph across RPC: the bytes a client
 * gets are those of svc's JSON encoding (docs/values.md), whichever side made them.
 */
const BASE = "http://svc.test";

async function rpcText(path: string, args: unknown): Promise<{ status: number; text: string }> {
  const response = await exports.default.fetch(`${BASE}/_svc/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, args }),
  });
  return { status: response.status, text: await response.text() };
}

function expectedRows(count: number): string {
  const rows = Array.from({ length: count }, (_, n) => ({
    n,
    big: { $int64: String(2n ** 62n + BigInt(n)) },
    bytes: { $bytes: btoa(String.fromCharCode(n % 256, 1, 2)) },
    nested: { text: `row ${n}`, list: [n, null] },
  }));
  return JSON.stringify(rows);
}

describe("answers encoded by the shard", () => {
  it("answers REST with svc's JSON encoding: bigints, bytes, undefined fields left out", async () => {
    const response = await exports.default.fetch(`${BASE}/_svc/rest/notes/many?count=300`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const text = await response.text();
    expect(text).toBe(expectedRows(300));
    expect(response.headers.get("content-length")).toBe(
      String(new TextEncoder().encode(text).byteLength),
    );
  });

  it("answers RPC with the same encoding inside { value }", async () => {
    const { status, text } = await rpcText("notes:many", { count: 3 });
    expect(status).toBe(200);
    expect(text).toBe(`{"value":${expectedRows(3)}}`);
  });

  it("answers a handler that returns nothing as null on both transports", async () => {
    const rest = await exports.default.fetch(`${BASE}/_svc/rest/notes/nothing`);
    expect(rest.status).toBe(200);
    expect(await rest.text()).toBe("null");
    expect(await rpcText("notes:nothing", {})).toEqual({ status: 200, text: '{"value":null}' });
  });
});
