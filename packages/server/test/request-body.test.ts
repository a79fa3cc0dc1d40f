import { describe, expect, it } from "vitest";
import { SvcError } from "../src/errors/svc-error.ts";
import { decodeUtf8, readBodyBytes, readJsonBody } from "../src/http/body.ts";

/**
 * How svc reads a request body under its cap (issue 50: a declared length is
 * read in one step, a body of unknown length a chunk at a time). Whichever
 * way, nothing over the cap is accepted and a body of unknown length is
 * never read past it.
 */

const URL_ = "http://svc.test/_svc/rpc";

/** A request whose body is `text` with `content-length` declared as `declared`. */
function declaredRequest(text: string, declared = String(new TextEncoder().encode(text).length)) {
  return new Request(URL_, { method: "POST", body: text, headers: { "content-length": declared } });
}

/** A body of unknown length: `chunk` forever, counting the chunks pulled and noting a cancel. */
function endlessBody(chunk: Uint8Array) {
  const seen = { pulls: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulls++;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

async function refusal(reading: Promise<unknown>): Promise<SvcError> {
  const error = await reading.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SvcError);
  return error as SvcError;
}

describe("readBodyBytes", () => {
  it("reads a body of declared length whole", async () => {
    const bytes = await readBodyBytes(declaredRequest('{"path":"notes:all"}'), 64);
    expect(new TextDecoder().decode(bytes)).toBe('{"path":"notes:all"}');
  });

  it("accepts a declared length exactly at the cap and refuses one byte more unread", async () => {
    expect((await readBodyBytes(declaredRequest("x".repeat(16)), 16)).byteLength).toBe(16);
    const over = declaredRequest("x".repeat(17));
    const error = await refusal(readBodyBytes(over, 16));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toBe("The request body is larger than 16 bytes.");
    expect(over.bodyUsed).toBe(false);
  });

  it("refuses a body longer than the length its header declares, once read", async () => {
    const lying = new Request(URL_, {
      method: "POST",
      body: new Blob(["x".repeat(40)]).stream(),
      headers: { "content-length": "4" },
    });
    expect((await refusal(readBodyBytes(lying, 16))).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("reads a body of unknown length a chunk at a time and stops at the cap", async () => {
    const { body, seen } = endlessBody(new Uint8Array(4).fill(0x78));
    const request = new Request(URL_, { method: "POST", body });
    expect(request.headers.get("content-length")).toBeNull();
    expect((await refusal(readBodyBytes(request, 10))).code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThanOrEqual(5);
  });

  it("takes a malformed content-length as no length: the body is read under the cap", async () => {
    const { body } = endlessBody(new Uint8Array(4).fill(0x78));
    const request = new Request(URL_, {
      method: "POST",
      body,
      headers: { "content-length": "4x" },
    });
    expect((await refusal(readBodyBytes(request, 10))).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers no bytes for a request without a body", async () => {
    expect((await readBodyBytes(new Request(URL_), 16)).byteLength).toBe(0);
  });
});

describe("decodeUtf8 and readJsonBody", () => {
  it("refuses invalid UTF-8 and then decodes the next body afresh", () => {
    const truncated = new Uint8Array([0x7b, 0xe2, 0x82]);
    expect(() => decodeUtf8(truncated)).toThrow("The request body is not valid UTF-8.");
    expect(decodeUtf8(new Uint8Array([0xe2, 0x82, 0xac]))).toBe("€");
  });

  it("reads a JSON body in the svc encoding; an empty one is undefined", async () => {
    const body = await readJsonBody(declaredRequest('{"big":{"$int64":"9007199254740993"}}'), 64);
    expect(body).toEqual({ big: 9007199254740993n });
    expect(await readJsonBody(declaredRequest(" "), 64)).toBeUndefined();
    expect((await refusal(readJsonBody(declaredRequest("{"), 64))).code).toBe("BAD_REQUEST");
  });
});
