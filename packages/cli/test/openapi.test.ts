import { readFile } from "node:fs/promises";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

const generated = path.resolve(import.meta.dirname, "../../../examples/app/svc/_generated");

describe("the example app's generated OpenAPI document", () => {
  it("is valid OpenAPI 3.1 according to an independent validator", async () => {
    const document = JSON.parse(await readFile(path.join(generated, "openapi.json"), "utf8"));
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has one operation per exposed procedure and method, with stable ids, tags and error responses", async () => {
    const document = JSON.parse(await readFile(path.join(generated, "openapi.json"), "utf8"));
    const operations = Object.entries(
      document.paths as Record<
        string,
        Record<string, { operationId: string; tags: string[]; responses: object }>
      >,
    ).flatMap(([route, item]) =>
      Object.entries(item).map(([method, op]) => ({ route, method, ...op })),
    );
    expect(
      operations.map((op) => `${op.method.toUpperCase()} ${op.route} ${op.operationId}`).sort(),
    ).toEqual([
      "GET /_svc/rest/account/whoami accountWhoami",
      "GET /_svc/rest/hello/ping helloPing",
      "GET /_svc/rest/maintenance/status maintenanceStatus",
      "GET /_svc/rest/messages/list messagesList",
      "GET /_svc/rest/messages/notifications messagesNotifications",
      "GET /_svc/rest/messages/search messagesSearch",
      "POST /_svc/rest/account/whoami accountWhoamiPost",
      "POST /_svc/rest/hello/ping helloPingPost",
      "POST /_svc/rest/maintenance/status maintenanceStatusPost",
      "POST /_svc/rest/messages/list messagesListPost",
      "POST /_svc/rest/messages/notifications messagesNotificationsPost",
      "POST /_svc/rest/messages/search messagesSearchPost",
      "POST /_svc/rest/messages/send messagesSend",
      "POST /_svc/rest/tools/wordCount toolsWordCount",
    ]);
    for (const op of operations) {
      expect(op.tags).toHaveLength(1);
      expect(Object.keys(op.responses)).toEqual(
        expect.arrayContaining(["200", "400", "401", "403", "404", "429", "500"]),
      );
    }
    expect(document.components.securitySchemes).toHaveProperty("bearerAuth");
    expect(document.components.securitySchemes).toHaveProperty("sessionCookie");
    const openapiTs = await readFile(path.join(generated, "openapi.ts"), "utf8");
    expect(openapiTs).toContain("export const openApiSpec = ");
  });
});
