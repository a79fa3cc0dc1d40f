import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import openApi from "../../svc/_generated/openapi.json" with { type: "json" };
import { appForThisFile, signUpForToken } from "./harness.ts";

/**
 * What the published OpenAPI document allows, the handlers accept (issue 46):
 * an OpenAPI fuzzer sent `limit: 1.9` (schema: number) and `body: ""`
 * (schema: string) and the handlers refused them. Every REST operation of the
 * example app gets edge values for each of its inputs; those its own schema
 * accepts (checked with Ajv, independently of svc's validators) must answer
 * 200 to a signed-in caller.
 */

// The REST limit is the subject of its own tests; here it would only refuse cases.
const app = appForThisFile({ vars: { REST_RATE_PER_MINUTE: "1000000" } });
let bearer: string;

type Schema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};
type Operation = {
  parameters?: (
    | { name: string; in: string; required?: boolean; schema: Schema }
    | { $ref: string }
  )[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
};

const ajv = new Ajv2020({ strict: false, validateFormats: false });

/** Edge values of a schema's type, valid or not: the schema decides which are sent. */
function edgeValues(schema: Schema): unknown[] {
  if (schema.type === "number" || schema.type === "integer") {
    const bounds = [schema.minimum, schema.maximum].filter((b): b is number => b !== undefined);
    return [0, 1, -1, 0.5, 1.9, 2, 1e9, ...bounds];
  }
  if (schema.type === "string") {
    const lengths = [schema.minLength ?? 0, schema.maxLength ?? 100];
    return ["", " ", "\t x ", "a", "日本 🎌", ...lengths.map((n) => "x".repeat(n))];
  }
  return [];
}

/** For each property: one object holding it at an edge value, the required rest at a valid one. */
function bodiesOf(schema: Schema): Record<string, unknown>[] {
  const properties = Object.entries(schema.properties ?? {});
  const valid = (name: string, value: unknown) =>
    ajv.validate({ ...schema, required: [] }, { [name]: value });
  const base: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    base[name] = edgeValues(schema.properties![name]!).find((value) => valid(name, value));
  }
  return properties.flatMap(([name, property]) =>
    edgeValues(property).map((value) => ({ ...base, [name]: value })),
  );
}

type Case = { method: string; path: string; input: Record<string, unknown> };

/** Every schema-valid edge input of every REST operation. */
function schemaValidCases(): Case[] {
  const cases: Case[] = [];
  for (const [path, operations] of Object.entries(openApi.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Operation>)) {
      const body = operation.requestBody?.content["application/json"].schema;
      if (body !== undefined) {
        for (const input of bodiesOf(body)) {
          if (ajv.validate(body, input)) cases.push({ method: "POST", path, input });
        }
      }
      // The query parameters as one object, so a required one (a search's text) is always sent.
      const query: Schema = { type: "object", properties: {}, required: [] };
      for (const parameter of operation.parameters ?? []) {
        if ("$ref" in parameter || parameter.in !== "query") continue;
        query.properties![parameter.name] = parameter.schema;
        if (parameter.required) query.required!.push(parameter.name);
      }
      for (const input of bodiesOf(query)) {
        if (ajv.validate(query, input)) cases.push({ method: method.toUpperCase(), path, input });
      }
    }
  }
  return cases;
}

function send({ method, path, input }: Case): Promise<Response> {
  const url = new URL(`${app.url}${path}`);
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (method === "GET") {
    for (const [name, value] of Object.entries(input)) url.searchParams.set(name, String(value));
    return fetch(url, { headers });
  }
  headers["content-type"] = "application/json";
  return fetch(url, { method, headers, body: JSON.stringify(input) });
}

beforeAll(async () => {
  bearer = await signUpForToken(app, "schema-valid@example.com");
});

describe("the example app's published inputs", () => {
  const cases = schemaValidCases();

  it("include the edge values the fuzzer found", () => {
    const seen = cases.map(
      ({ method, path, input }) => `${method} ${path} ${JSON.stringify(input)}`,
    );
    expect(seen).toContain('POST /_svc/rest/messages/send {"body":"a"}');
    expect(seen).toContain('GET /_svc/rest/messages/list {"limit":200}');
    // The schema now refuses what the handlers refused: not sent, not published as valid.
    expect(seen).not.toContain('POST /_svc/rest/messages/send {"body":""}');
    expect(seen).not.toContain('GET /_svc/rest/messages/list {"limit":1.9}');
  });

  it("are all accepted by the handlers", async () => {
    const refused: string[] = [];
    for (const testCase of cases) {
      const response = await send(testCase);
      const text = await response.text();
      if (response.status !== 200) {
        refused.push(
          `${testCase.method} ${testCase.path} ${JSON.stringify(testCase.input)}: ${response.status} ${text}`,
        );
      }
    }
    expect(refused).toEqual([]);
    expect(cases.length).toBeGreaterThan(30);
  }, 120_000);
});
