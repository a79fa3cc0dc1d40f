import { describe, expect, it, vi } from "vitest";
import { adminApi } from "../../ui/api/admin.ts";
import {
  ApiError,
  createAdminClient,
  errorFromResponse,
  isRetryable,
} from "../../ui/api/client.ts";

const TOKEN = "a-test-admin-token-that-is-long-enough-0123";

function problem(status: number, body: object): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json" },
  });
}

function recorder(response: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return response();
  });
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

describe("createAdminClient", () => {
  it("sends the token only in the Authorization header, never in the URL", async () => {
    const { calls, fetch } = recorder(() => Response.json({ users: [] }));
    const api = adminApi(createAdminClient({ token: TOKEN, fetch }));
    await api.listUsers({ query: { search: "ada", cursor: undefined } });
    const [call] = calls;
    expect(call?.url).toBe("/_svc/admin/auth/users?search=ada");
    expect(call?.url).not.toContain(TOKEN);
    expect(new Headers(call?.init.headers).get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(call?.init.credentials).toBe("omit");
    expect(call?.init.cache).toBe("no-store");
  });

  it("posts a JSON object body (an empty one when none is given)", async () => {
    const { calls, fetch } = recorder(() => Response.json({ user: {} }));
    const api = adminApi(createAdminClient({ token: TOKEN, fetch }));
    await api.unbanUser({ params: { id: "u1" } });
    await api.banUser({ params: { id: "u1" }, body: { reason: "spam" } });
    expect(calls.map((call) => call.init.body)).toEqual(["{}", '{"reason":"spam"}']);
    expect(new Headers(calls[0]?.init.headers).get("content-type")).toBe("application/json");
  });

  it("turns problem details into an ApiError carrying detail, code, status and issues", async () => {
    const { fetch } = recorder(() =>
      problem(400, {
        type: "urn:svc:error:validation-failed",
        title: "Validation failed",
        status: 400,
        code: "VALIDATION_FAILED",
        detail: "The role must be one of user, admin.",
        errors: [{ path: "role", message: "unknown role" }, { nonsense: true }],
      }),
    );
    const error = await adminApi(createAdminClient({ token: TOKEN, fetch }))
      .setRole({ params: { id: "u1" }, body: { role: "root" } })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: "The role must be one of user, admin.",
      code: "VALIDATION_FAILED",
      status: 400,
      issues: [{ path: "role", message: "unknown role" }],
    });
  });

  it("reports a 401 to onUnauthenticated before throwing it", async () => {
    const { fetch } = recorder(() =>
      problem(401, { code: "UNAUTHENTICATED", detail: "A valid admin token is required." }),
    );
    const refused = vi.fn();
    const error = await adminApi(
      createAdminClient({ token: TOKEN, fetch, onUnauthenticated: refused }),
    )
      .capabilities()
      .catch((thrown: unknown) => thrown);
    expect(refused).toHaveBeenCalledOnce();
    expect(error).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
  });

  it("does not report other errors as a sign-out", async () => {
    const { fetch } = recorder(() => problem(409, { code: "CONFLICT", detail: "Already banned." }));
    const refused = vi.fn();
    await expect(
      adminApi(createAdminClient({ token: TOKEN, fetch, onUnauthenticated: refused })).banUser({
        params: { id: "u1" },
      }),
    ).rejects.toMatchObject({ status: 409, message: "Already banned." });
    expect(refused).not.toHaveBeenCalled();
  });

  it("says the server could not be reached when fetch itself fails", async () => {
    const fetch = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    await expect(
      adminApi(createAdminClient({ token: TOKEN, fetch })).listUsers(),
    ).rejects.toMatchObject({ code: "NETWORK", status: 0 });
  });

  it("rethrows an abort as-is, so a superseded request is not shown as an error", async () => {
    const controller = new AbortController();
    const fetch = (async () => {
      controller.abort();
      throw new DOMException("aborted", "AbortError");
    }) as typeof globalThis.fetch;
    const error = await adminApi(createAdminClient({ token: TOKEN, fetch }))
      .listUsers({ signal: controller.signal })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DOMException);
  });

  it("refuses a 2xx answer that is not JSON with a readable error", async () => {
    const { fetch } = recorder(() => new Response("<html>proxy</html>", { status: 200 }));
    await expect(
      adminApi(createAdminClient({ token: TOKEN, fetch })).listUsers(),
    ).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });
});

describe("errorFromResponse", () => {
  it("falls back to a sentence with the status when the body is not problem details", async () => {
    const error = await errorFromResponse(
      new Response("<h1>Bad gateway</h1>", {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "content-type": "text/html" },
      }),
    );
    expect(error.message).toBe("The server answered 502 Bad Gateway.");
    expect(error.code).toBe("HTTP_502");
  });

  it("keeps the code but falls back on the status sentence when detail is empty", async () => {
    const error = await errorFromResponse(problem(500, { code: "INTERNAL", detail: "" }));
    expect(error).toMatchObject({ code: "INTERNAL", message: "The server answered 500." });
  });
});

describe("URLs the derived client builds", () => {
  it("escapes every path parameter, so an id cannot change the route", async () => {
    const { calls, fetch } = recorder(() => Response.json({ sessions: [] }));
    await adminApi(createAdminClient({ token: TOKEN, fetch })).listSessions({
      params: { id: "a/../b?x" },
    });
    expect(calls[0]?.url).toBe("/_svc/admin/auth/users/a%2F..%2Fb%3Fx/sessions");
  });

  it("leaves empty and undefined values out of the query", async () => {
    const { calls, fetch } = recorder(() => Response.json({ users: [] }));
    const api = adminApi(createAdminClient({ token: TOKEN, fetch }));
    await api.listUsers({ query: { search: "", role: undefined, banned: false, limit: 25 } });
    await api.listUsers({ query: {} });
    expect(calls.map((call) => call.url)).toEqual([
      "/_svc/admin/auth/users?banned=false&limit=25",
      "/_svc/admin/auth/users",
    ]);
  });

  it("sends an import's CSV as text/csv and the REST document's path as createWorker serves it", async () => {
    const { calls, fetch } = recorder(() => Response.json({}));
    const api = adminApi(createAdminClient({ token: TOKEN, fetch }));
    await api.importUsers({
      query: { dryRun: true },
      body: { type: "text/csv", content: "email\na@b.c" },
    });
    await api.restOpenApi();
    expect(calls[0]?.url).toBe("/_svc/admin/auth/users/import?dryRun=true");
    expect(new Headers(calls[0]?.init.headers).get("content-type")).toBe("text/csv");
    expect(calls[0]?.init.body).toBe("email\na@b.c");
    expect(calls[1]?.url).toBe("/_svc/admin/openapi");
  });
});

describe("isRetryable", () => {
  it.each([
    { status: 0, retry: true },
    { status: 429, retry: true },
    { status: 503, retry: true },
    { status: 404, retry: false },
    { status: 409, retry: false },
    { status: 400, retry: false },
  ])("$status → $retry", ({ status, retry }) => {
    expect(isRetryable(new ApiError(status, "X", "x"))).toBe(retry);
  });

  it("offers a retry for errors that are not from the API", () => {
    expect(isRetryable(new Error("boom"))).toBe(true);
  });
});
