import { describe, expect, it } from "vitest";
import { openApiSpec } from "../../../../examples/app/svc/_generated/openapi.ts";
import { propertiesOf } from "../../ui/lib/json-schema.ts";
import { filterGroups, readApiReference } from "../../ui/lib/openapi.ts";

const reference = readApiReference(openApiSpec);
const document = reference.document;
const groupNamed = (name: string) => reference.groups.find((group) => group.name === name)!;

describe("readApiReference over the example app's generated document", () => {
  it("groups operations by tag in document order", () => {
    expect(reference.title).toBe("svc-example-app");
    expect(reference.groups.map((group) => group.name)).toEqual([
      "account",
      "hello",
      "maintenance",
      "messages",
      "tools",
    ]);
    const hello = groupNamed("hello").operations.map((op) => `${op.method} ${op.path}`);
    expect(hello).toEqual(["GET /_svc/rest/hello/ping", "POST /_svc/rest/hello/ping"]);
    expect(reference.operationCount).toBe(
      reference.groups.reduce((sum, group) => sum + group.operations.length, 0),
    );
  });

  it("keeps an operation's own parameters apart from the shared shard-key ones", () => {
    const ping = groupNamed("hello").operations[0]!;
    expect(ping.procedure).toBe("hello:ping");
    expect(ping.kind).toBe("query");
    expect(ping.parameters.filter((p) => !p.shared).map((p) => p.name)).toEqual(["name"]);
    expect(ping.parameters.filter((p) => p.shared).map((p) => p.name)).toEqual([
      "shardKey",
      "x-svc-shard-key",
    ]);
    expect(reference.sharedParameters.map((p) => `${p.name} (${p.in})`)).toEqual([
      "shardKey (query)",
      "x-svc-shard-key (header)",
    ]);
  });

  it("shows success responses in full and error responses as shared references", () => {
    const send = reference.groups
      .flatMap((group) => group.operations)
      .find((op) => op.path.endsWith("/messages/send"))!;
    const [ok, ...errors] = send.responses;
    expect(ok).toMatchObject({ status: "200", shared: undefined, mediaType: "application/json" });
    expect(ok?.headers.map((header) => header.name)).toContain("RateLimit-Remaining");
    expect(errors.every((response) => response.shared?.startsWith("Error"))).toBe(true);
    expect(send.requestBody?.required).toBe(true);
    expect(propertiesOf(send.requestBody?.schema, document)).toEqual([
      {
        name: "body",
        schema: { type: "string", minLength: 1, maxLength: 2000, pattern: "\\S" },
        required: true,
      },
      { name: "channel", schema: { type: "string", minLength: 1, maxLength: 64 }, required: false },
    ]);
    expect(send.security).toEqual([[], ["sessionCookie"], ["bearerAuth"], ["apiKey"]]);
  });

  it("reads the security schemes", () => {
    expect(reference.securitySchemes.map((scheme) => scheme.summary)).toEqual([
      "cookie better-auth.session_token",
      "HTTP bearer",
      "header x-api-key",
    ]);
  });

  it("merges allOf parts, so a shared error narrows the problem's code", () => {
    const error400 = reference.sharedResponses.find((response) => response.status === "Error400");
    const code = propertiesOf(error400?.schema, document).find((p) => p.name === "code");
    expect(code?.schema.enum).toEqual(["BAD_REQUEST", "VALIDATION_FAILED"]);
    expect(code?.required).toBe(true);
  });

  it("filters operations by path, summary, procedure or tag", () => {
    expect(filterGroups(reference.groups, "wordcount").flatMap((g) => g.operations)).toHaveLength(
      1,
    );
    expect(filterGroups(reference.groups, "messages").map((g) => g.name)).toEqual(["messages"]);
    expect(filterGroups(reference.groups, "")).toBe(reference.groups);
    expect(filterGroups(reference.groups, "no such thing")).toEqual([]);
  });
});

describe("readApiReference on odd input", () => {
  it("refuses a value that is not an OpenAPI 3 document", () => {
    expect(() => readApiReference({ swagger: "2.0" })).toThrow(/not an OpenAPI 3 document/);
    expect(() => readApiReference("nope")).toThrow(/not an OpenAPI 3 document/);
  });

  it("tolerates fields of the wrong shape instead of throwing", () => {
    const odd = readApiReference({
      openapi: "3.1.0",
      info: "wrong",
      paths: { "/x": { get: { tags: [3], parameters: "no", responses: [] } }, "/y": 5 },
    });
    expect(odd.groups).toEqual([
      expect.objectContaining({
        name: "other",
        operations: [expect.objectContaining({ path: "/x" })],
      }),
    ]);
  });
});
