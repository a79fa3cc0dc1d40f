import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";

/**
 * Issue 19 item 9: a client generated from the published OpenAPI document
 * with openapi-typescript + openapi-fetch (which send query values as they
 * are) calls every GET with numeric-looking strings and is understood: a
 * string argument given `?name=123` is the string "123", not the number.
 */

const ADMIN_TOKEN = "openapi-client-admin-token-0123456789abcdef";
const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN } });
const TMP = path.resolve(import.meta.dirname, "../../.tmp-openapi-client");
let bearer: string;
let document: { paths: Record<string, { get?: { parameters?: Parameter[] } }> };

interface Parameter {
  name?: string;
  in?: string;
  schema?: { type?: string };
}

beforeAll(async () => {
  const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email: "oa@example.com", password: "a long password", name: "OA" }),
  });
  bearer = signUp.headers.get("set-auth-token") ?? "";
  const response = await fetch(`${app.url}/_svc/admin/openapi`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  document = (await response.json()) as typeof document;
}, 90_000);

afterAll(async () => {
  await rm(TMP, { recursive: true, force: true });
});

describe("a client generated from the OpenAPI document", () => {
  it("type-checks calls that pass numeric-looking strings", async () => {
    const types = astToString(await openapiTS(document as never));
    await mkdir(TMP, { recursive: true });
    await writeFile(path.join(TMP, "schema.d.ts"), types);
    await writeFile(
      path.join(TMP, "usage.ts"),
      [
        'import createClient from "openapi-fetch";',
        'import type { paths } from "./schema.d.ts";',
        'const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8787" });',
        'await client.GET("/_svc/rest/hello/ping", { params: { query: { name: "123" } } });',
        'await client.GET("/_svc/rest/messages/list", { params: { query: { channel: "42", limit: 5 } } });',
        "export {};",
      ].join("\n"),
    );
    const tsc = path.resolve(import.meta.dirname, "../../../../node_modules/typescript/bin/tsc");
    const args = ["--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler"];
    const result = await promisify(execFile)(process.execPath, [
      tsc,
      ...args,
      "--target",
      "es2022",
      "--allowImportingTsExtensions",
      "--skipLibCheck",
      path.join(TMP, "usage.ts"),
    ]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe("");
  });

  it("gets 200 from every GET with a numeric-looking string in each string argument", async () => {
    const client = createClient<Record<string, never>>({ baseUrl: app.url });
    const gets = Object.entries(document.paths).filter(([, item]) => item.get !== undefined);
    expect(gets.length).toBeGreaterThanOrEqual(3);
    for (const [route, item] of gets) {
      const query: Record<string, string | number> = {};
      for (const parameter of item.get?.parameters ?? []) {
        if (parameter.in !== "query" || parameter.name === undefined) continue;
        if (parameter.schema?.type === "string") query[parameter.name] = "123";
        if (parameter.schema?.type === "number") query[parameter.name] = 7;
      }
      const { response, data } = await (
        client as unknown as {
          GET(url: string, init: object): Promise<{ response: Response; data: unknown }>;
        }
      ).GET(route, {
        params: { query },
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(response.status, `${route} ${JSON.stringify(query)}`).toBe(200);
      if (route.endsWith("/hello/ping")) expect(data).toBe("pong 123");
    }
  });
});
