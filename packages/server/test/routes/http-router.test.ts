import { describe, expect, it } from "vitest";
import { httpAction } from "../../src/http-actions/action.ts";
import { httpRouter } from "../../src/http-actions/router.ts";
import { runRouterSuite } from "./router.case.ts";

/** The HTTP actions of `svc/http.ts` route through the shared engine: the one suite over `httpRouter()`. */
runRouterSuite(() => {
  const router = httpRouter();
  const names = new Map<unknown, string>();
  return {
    add: (method, pattern, name) => {
      const action = httpAction.handler(() => new Response(name));
      names.set(action, name);
      router.route(method, pattern, action);
    },
    match: async (method, path) => {
      const found = router.match(method, path);
      return found.kind === "found"
        ? { kind: "found", name: names.get(found.route.action)!, params: found.params }
        : found;
    },
  };
});

describe("httpRouter beyond the shared contract", () => {
  const action = httpAction.handler(() => new Response("ok"));

  it("answers HEAD with the GET route and lists GET, never HEAD, in Allow", () => {
    const router = httpRouter().get("/a", action).post("/b", action);
    expect(router.match("HEAD", "/a")).toMatchObject({ kind: "found" });
    expect(router.match("HEAD", "/b")).toEqual({ kind: "method", allow: ["POST"] });
  });

  it("keeps /_svc/ for svc and wants absolute patterns", () => {
    expect(() => httpRouter().get("/_svc/admin", action)).toThrow(/reserves/);
    expect(() => httpRouter().get("relative", action)).toThrow(/must start with "\/"/);
  });
});
