import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DASHBOARD_CSP } from "../src/internal.ts";
import { DATA } from "./data/admin.ts";

const get = (path: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(`http://svc.test${path}`, { headers });
const alice = { authorization: "Bearer test-admin-token-0123456789abcdef" };

describe("admin routes", () => {
  it("hand /_svc/admin/auth/* to authAdmin with the operator and the rest of the path, never cached", async () => {
    const response = await get("/_svc/admin/auth/users/u1/sessions", alice);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      method: "GET",
      path: "users/u1/sessions",
      operator: "alice",
    });
    const ci = await get("/_svc/admin/auth/capabilities", {
      authorization: "Bearer ci-admin-token-0123456789abcdef00",
    });
    expect(await ci.json()).toMatchObject({ operator: "ci" });
  });

  it("answer the same 401 for every admin path without a valid token", async () => {
    const paths = [
      "/_svc/admin/auth/users",
      "/_svc/admin/openapi",
      "/_svc/admin/nothing-here",
      "/_svc/admin/auth/",
    ];
    const answers = await Promise.all(
      paths.map(async (path) => {
        const response = await get(path, {
          authorization: "Bearer wrong-token-0123456789abcdef0123456",
        });
        return {
          status: response.status,
          headers: [...response.headers.entries()],
          body: await response.text(),
        };
      }),
    );
    expect(answers[0]?.status).toBe(401);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it("hand /_svc/admin/auth/link/* to authAdmin.handleLink without any token (the code is the credential)", async () => {
    const response = await get("/_svc/admin/auth/link/code-123");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ link: true, method: "GET", path: "code-123" });
    // Only that prefix: its neighbours stay behind the gate.
    for (const path of [
      "/_svc/admin/auth/link",
      "/_svc/admin/auth/linked/x",
      "/_svc/admin/link/x",
    ]) {
      expect((await get(path)).status, path).toBe(401);
    }
  });

  it("404 an unknown admin path once the token is valid", async () => {
    expect((await get("/_svc/admin/nothing-here", alice)).status).toBe(404);
  });
});

describe("the whole admin API's OpenAPI document", () => {
  type Document = {
    openapi: string;
    tags: { name: string }[];
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  const documentOf = async (headers: Record<string, string>) => {
    const response = await get("/_svc/admin/admin-openapi.json", { ...alice, ...headers });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return (await response.json()) as Document;
  };

  it("lists every group createWorker serves, only the routes that exist here, each answering 401", async () => {
    const document = await documentOf({});
    expect(document.openapi).toBe("3.1.0");
    expect(document.tags.map((tag) => tag.name)).toEqual([
      "data",
      "files",
      "logs",
      "schedules",
      "svc",
    ]);
    const paths = Object.keys(document.paths);
    for (const path of [
      "/_svc/admin/openapi",
      "/_svc/admin/admin-openapi.json",
      "/_svc/admin/logs",
      "/_svc/admin/data/shards/{key}",
      "/_svc/admin/data/shards/{key}/sql",
      "/_svc/admin/schedules/shards/{key}",
      "/_svc/admin/files/shards/{key}/{id}",
    ])
      expect(paths).toContain(path);
    // This worker has no backups: their routes answer 404, so they are not in the document.
    expect(paths).not.toContain("/_svc/admin/data/backups");
    expect(document.paths["/_svc/admin/data/shards/{key}/backup"]).toBeUndefined();
    for (const item of Object.values(document.paths))
      for (const operation of Object.values(item)) expect(operation.responses["401"]).toBeDefined();
  });

  it("writes its operations as the app's REST document does: one emitter for both", async () => {
    const document = await documentOf({});
    const rest = (await (await get("/_svc/admin/openapi", alice)).json()) as {
      components: { responses: Record<string, unknown> };
      paths: Record<string, Record<string, { parameters?: unknown }>>;
    };
    // The same problem answer for the same codes, inline here and shared there.
    expect(document.paths["/_svc/admin/openapi"]?.get?.responses["404"]).toEqual(
      rest.components.responses.Error404,
    );
    const operations = [document, rest].flatMap((doc) =>
      Object.values(doc.paths).flatMap((item) => Object.values(item)),
    );
    for (const operation of operations)
      expect(Array.isArray((operation as { parameters?: unknown }).parameters)).toBe(true);
  });

  it("lists the backup routes where backups are configured", async () => {
    const document = await documentOf(DATA);
    expect(Object.keys(document.paths)).toContain("/_svc/admin/data/backups");
    expect(document.paths["/_svc/admin/data/shards/{key}/backup"]?.post).toBeDefined();
  });

  it("needs the admin token and answers GET only", async () => {
    const refused = await get("/_svc/admin/admin-openapi.json");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    const posted = await exports.default.fetch("http://svc.test/_svc/admin/admin-openapi.json", {
      method: "POST",
      headers: alice,
    });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET");
  });
});

describe("dashboard files", () => {
  it("serve index.html with a strict CSP and no caching, without a token", async () => {
    const response = await get("/_svc/dashboard/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).not.toContain("unsafe-inline");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toContain("<title>dash</title>");
  });

  it("serve assets by name, fall back to index.html for client routes, redirect the bare path", async () => {
    const asset = await get("/_svc/dashboard/app.js");
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await asset.text()).toBe("console.log(1)");
    expect(await (await get("/_svc/dashboard/users/u1")).text()).toContain("<title>dash</title>");
    const bare = await exports.default.fetch("http://svc.test/_svc/dashboard", {
      redirect: "manual",
    });
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/_svc/dashboard/");
  });
});
