import { Validator } from "@seriousme/openapi-schema-validator";
import { ADMIN_AUTH_ROUTES } from "@svc/auth/admin-contract";
import { SVC_ADMIN_GROUPS } from "@svc/server/routes/contract";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "./harness.ts";

/**
 * The admin API's OpenAPI documents (issues 31 and 51), as the running app
 * serves them: the whole admin API's (`/_svc/admin/admin-openapi.json`,
 * every group of the one route contract) and the auth group's, both valid
 * under an independent validator, and the contract of every answer.
 * Property tests generated from the whole document send every operation
 * valid and invalid input (path ids, query parameters, bodies) to the real
 * worker (wrangler dev: workerd, better-auth, local D1, local R2) and hold
 * each answer to the document: never a 5xx, only a documented status, and a
 * body its schema accepts. better-auth's `/api/auth` document is checked for
 * validity too.
 */

const ADMIN_TOKEN = "admin-openapi-test-token-0123456789abcdef";
const RUNS = Number(process.env.SVC_ADMIN_OPENAPI_RUNS ?? 500);
// The storage secret turns file storage on, so the files admin routes run for real.
const app = appForThisFile({
  vars: {
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_STORAGE_SECRET: "admin-openapi-storage-secret-0123456789abcdef",
  },
});

type Json = Record<string, unknown>;
type Schema = Json;
interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

let document: Json;
let authDocument: Json;
let operations: Operation[];
const ids: Record<string, string[]> = {};

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers ?? {}) },
  });
}

function operationsOf(served: Json): Operation[] {
  return Object.entries(served.paths as Record<string, Record<string, Json>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        ...(op as unknown as Operation),
        method,
        path,
      })),
  );
}

beforeAll(async () => {
  document = (await (await admin("/_svc/admin/admin-openapi.json")).json()) as Json;
  authDocument = (await (await admin("/_svc/admin/auth/openapi.json")).json()) as Json;
  operations = operationsOf(document);
  const tokens: string[] = [];
  for (const name of ["ann", "bob", "cy", "doomed-1", "doomed-2"]) {
    tokens.push(await signUpForToken(app, `${name}-${crypto.randomUUID()}@openapi.test`, name));
  }
  const page = (await (await admin("/_svc/admin/auth/users?limit=10")).json()) as {
    users: { id: string; name: string }[];
  };
  const users = page.users.filter((user) => !user.name.startsWith("doomed")).map((user) => user.id);
  ids.doomed = page.users.filter((user) => user.name.startsWith("doomed")).map((user) => user.id);
  const created = await admin("/_svc/admin/auth/organizations", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Fuzz", slug: `fuzz-${Date.now()}`, ownerId: users[0] }),
  });
  const { organization } = (await created.json()) as { organization: { id: string } };
  ids.user = users;
  ids.organization = [organization.id];
  // A shard with documents, so the data, files and schedules routes have one to act on.
  const wrote = await fetch(`${app.url}/_svc/rest/messages/send`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${tokens[0]}` },
    body: JSON.stringify({ body: "a message in the fuzzed shard" }),
  });
  expect(wrote.status).toBe(200);
  ids.key = ["default"];
  ids.table = ["messages"];
  ids.other = ["x", "0", "日本", "a b"];
}, 90_000);

describe("the admin OpenAPI documents", () => {
  it("is valid OpenAPI 3.1 under an independent validator, with every route and the admin bearer", async () => {
    for (const served of [document, authDocument]) {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(served));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
      expect(served.security).toEqual([{ adminToken: [] }]);
    }
    expect(operationsOf(authDocument).length).toBeGreaterThanOrEqual(40);
  });

  it("lists every admin route of every group of the one contract, each once", () => {
    const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
    for (const tag of ["auth", "data", "files", "logs", "schedules", "svc"])
      expect(tags).toContain(tag);
    const listed = operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
    const declared = [...SVC_ADMIN_GROUPS, ADMIN_AUTH_ROUTES]
      .flatMap((group) =>
        Object.values(group.routes).map(
          (spec) => `${spec.method} ${`${group.prefix}${spec.path}`.replace(/:(\w+)/g, "{$1}")}`,
        ),
      )
      .sort();
    // The example app turns every surface on: each declared route is served and documented.
    expect(listed).toEqual(declared);
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) expect(op.responses["401"], op.operationId).toBeDefined();
  });

  it("needs the admin token like every admin route", async () => {
    for (const path of ["/_svc/admin/admin-openapi.json", "/_svc/admin/auth/openapi.json"]) {
      const refused = await fetch(`${app.url}${path}`);
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(((await refused.json()) as { code: string }).code).toBe("UNAUTHENTICATED");
    }
  });

  it("has a valid companion: better-auth's /api/auth document, corrected", async () => {
    const served = (await (await admin("/_svc/admin/auth/api-openapi.json")).json()) as Json;
    const validator = new Validator();
    const result = await validator.validate(structuredClone(served));
    expect(result.errors ?? []).toEqual([]);
    const paths = Object.keys(served.paths as object);
    expect(paths).toContain("/api/auth/sign-in/email");
    expect(paths).toContain("/api/auth/organization/create");
    const schemes = (served.components as { securitySchemes: Json }).securitySchemes;
    expect(schemes.sessionCookie).toMatchObject({
      in: "cookie",
      name: "better-auth.session_token",
    });
  });
});

/** A value the schema accepts (a subset of JSON Schema: what svc's validators emit). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop()!;
    return valid(
      (document.components as { schemas: Record<string, Schema> }).schemas[name]!,
      depth,
    );
  }
  if (Array.isArray(schema.anyOf))
    return fc.oneof(...(schema.anyOf as Schema[]).map((s) => valid(s, depth)));
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "string":
      return fc.string({ maxLength: Math.min(Number(schema.maxLength ?? 40), 40) });
    case "integer":
      return fc.integer({
        min: Number(schema.minimum ?? -1000),
        max: Number(schema.maximum ?? 100_000),
      });
    case "number":
      return fc.integer({ min: -10, max: 100_000 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 2
        ? fc.constant([])
        : fc.array(valid(schema.items as Schema, depth + 1), { maxLength: 3 });
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), {
          maxKeys: 2,
        });
      const required = new Set((schema.required ?? []) as string[]);
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [key, valid(s, depth + 1)]),
      );
      return fc.record(shape, { requiredKeys: [...required] as never[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("", "null", "[]", "{", "日本", "a".repeat(3000), -1, 1e308, true),
);

function queryValue(schema: Schema): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: valid(schema).map(String), weight: 9 },
    {
      arbitrary: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom("0", "-1", "101", "yes", "1.5"),
      ),
      weight: 1,
    },
  );
}

function request(op: Operation): fc.Arbitrary<{ path: string; init: RequestInit }> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  // Deleting the users and the organization every other case acts on would leave only 404s.
  const destroys = op.operationId === "deleteUser" || op.operationId === "deleteOrganization";
  const real = destroys
    ? ids.doomed!
    : op.path.includes("/organizations/")
      ? ids.organization!
      : ids.user!;
  const pathArb = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        fc.oneof(
          {
            arbitrary: fc.constantFrom(...(ids[p.name] ?? real)),
            weight: p.name in ids || (p.name === "id" && op.path.includes("/auth/")) ? 8 : 0,
          },
          { arbitrary: fc.constantFrom(...ids.other!), weight: 1 },
        ),
      ]),
    ),
  );
  const queryArb = fc.tuple(
    fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p.schema)])), {
      requiredKeys: [],
    }),
    fc.oneof(
      { arbitrary: fc.constant(null), weight: 9 },
      { arbitrary: fc.constantFrom("unknown", "limit"), weight: 1 },
    ),
  );
  const content = op.requestBody?.content ?? {};
  const bodyArb: fc.Arbitrary<RequestInit> = content["application/json"]
    ? fc
        .oneof(
          { arbitrary: valid(content["application/json"].schema), weight: 6 },
          { arbitrary: hostile, weight: 1 },
        )
        .map((body) => ({
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }))
    : fc.constant({});
  return fc.tuple(pathArb, queryArb, bodyArb).map(([pathValues, [query, extra], body]) => {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(pathValues[name])),
    );
    const search = new URLSearchParams(query as Record<string, string>);
    if (extra !== null) search.append(extra, "1");
    const text = search.toString();
    return {
      path: `${path}${text ? `?${text}` : ""}`,
      init: { method: op.method.toUpperCase(), ...body },
    };
  });
}

describe("every admin operation, against the document", () => {
  it("answers generated valid and invalid input with documented statuses and bodies, never a 5xx", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    const checkers = new Map<string, (value: unknown) => boolean>();
    const checker = (schema: Schema) => {
      const key = JSON.stringify(schema);
      let check = checkers.get(key);
      if (check === undefined) {
        const compiled = ajv.compile({ ...schema, components: document.components });
        check = (value: unknown) => compiled(value) as boolean;
        checkers.set(key, check);
      }
      return check;
    };
    const seen = new Map<string, Set<number>>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations).chain((op) => request(op).map((req) => ({ op, req }))),
        async ({ op, req }) => {
          const response = await admin(req.path, req.init);
          const status = response.status;
          const label = `${req.init.method} ${req.path} → ${status}`;
          expect(status, label).toBeLessThan(500);
          const documented = op.responses[String(status)];
          expect(documented, `${label} is not documented for ${op.operationId}`).toBeDefined();
          const statuses = seen.get(op.operationId) ?? new Set<number>();
          statuses.add(status);
          seen.set(op.operationId, statuses);
          const type = (response.headers.get("content-type") ?? "").split(";")[0]!;
          const media = documented?.content?.[type];
          expect(media, `${label}: content-type ${type} is not documented`).toBeDefined();
          // JSON answers are checked against their schema; NDJSON, event streams and files are not JSON.
          if (type === "application/json" || type.endsWith("+json")) {
            const body: unknown = await response.json();
            const check = checker(media!.schema);
            expect(check(body), `${label}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
          } else await response.body?.cancel();
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    // The campaign reached most operations, with successes and refusals both.
    expect(seen.size).toBeGreaterThan(operations.length * 0.8);
    const all = [...seen.values()].flatMap((statuses) => [...statuses]);
    for (const status of [200, 400, 404]) expect(all, `status ${status} seen`).toContain(status);
    const succeeded = [...seen.values()].filter((statuses) => [...statuses].some((s) => s < 300));
    expect(succeeded.length, "operations that answered a success").toBeGreaterThan(
      operations.length / 4,
    );
  }, 120_000);
});
