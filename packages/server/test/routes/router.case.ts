import { beforeEach, describe, expect, it } from "vitest";

/** What the contract suite sees of a router: add routes, then match a method and a raw path. */
export interface RouterUnderTest {
  add(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", pattern: string, name: string): void;
  match(
    method: string,
    path: string,
  ): Promise<
    | { kind: "found"; name: string; params: Record<string, string> }
    | { kind: "method"; allow: string[] }
    | { kind: "none" }
  >;
}

/**
 * One behaviour table for every front door of svc's path router (Hono's
 * `common.case.test.ts`): the engine itself, the HTTP actions' `httpRouter()`
 * and the declared routes of `serveRoutes` (the admin API) must agree on
 * what a pattern means.
 */
export function runRouterSuite(newRouter: () => RouterUnderTest): void {
  describe("the router contract", () => {
    let router: RouterUnderTest;
    beforeEach(() => {
      router = newRouter();
    });

    it("matches literal paths by method, and nothing else", async () => {
      router.add("GET", "/hello", "get hello");
      router.add("POST", "/hello", "post hello");
      expect(await router.match("GET", "/hello")).toEqual({
        kind: "found",
        name: "get hello",
        params: {},
      });
      expect(await router.match("POST", "/hello")).toEqual({
        kind: "found",
        name: "post hello",
        params: {},
      });
      expect(await router.match("GET", "/")).toEqual({ kind: "none" });
      expect(await router.match("GET", "/hello/")).toEqual({ kind: "none" });
      expect(await router.match("GET", "/hellos")).toEqual({ kind: "none" });
    });

    it("answers a known path on another method with the methods it has, in declaration order", async () => {
      router.add("POST", "/users/:id", "post");
      router.add("GET", "/users/:id", "get");
      router.add("DELETE", "/users/:id", "delete");
      expect(await router.match("PUT", "/users/u1")).toEqual({
        kind: "method",
        allow: ["POST", "GET", "DELETE"],
      });
    });

    it("captures named parameters, percent-decoded", async () => {
      router.add("GET", "/entry/:id/comment/:commentId", "comment");
      expect(await router.match("GET", "/entry/123/comment/a%20b%2Fc")).toEqual({
        kind: "found",
        name: "comment",
        params: { id: "123", commentId: "a b/c" },
      });
    });

    it("takes a reserved word as a parameter name", async () => {
      router.add("GET", "/entry/:constructor", "entry");
      expect(await router.match("GET", "/entry/123")).toEqual({
        kind: "found",
        name: "entry",
        params: { constructor: "123" },
      });
    });

    it("never matches an empty or badly encoded parameter", async () => {
      router.add("GET", "/users/:id/ban", "ban");
      expect(await router.match("GET", "/users//ban")).toEqual({ kind: "none" });
      expect(await router.match("GET", "/users/%E0%A4%A/ban")).toEqual({ kind: "none" });
    });

    it("prefers the route declared first when two patterns match", async () => {
      router.add("GET", "/users/export", "export");
      router.add("GET", "/users/:id", "user");
      expect(await router.match("GET", "/users/export")).toMatchObject({ name: "export" });
      expect(await router.match("GET", "/users/u1")).toMatchObject({
        name: "user",
        params: { id: "u1" },
      });
    });

    it("matches the rest of the path with a final *", async () => {
      router.add("GET", "/files/*", "files");
      expect(await router.match("GET", "/files/a/b%20c.txt")).toEqual({
        kind: "found",
        name: "files",
        params: { "*": "a/b c.txt" },
      });
      expect(await router.match("GET", "/files")).toEqual({
        kind: "found",
        name: "files",
        params: { "*": "" },
      });
      expect(await router.match("GET", "/filesx")).toEqual({ kind: "none" });
    });

    it("refuses the same method and shape twice, whatever the parameter names", () => {
      router.add("GET", "/a/:id", "first");
      expect(() => router.add("GET", "/a/:key", "second")).toThrow(/routed twice|same route/);
    });

    it("refuses a * before the end, a parameter named twice and an invalid segment", () => {
      expect(() => router.add("GET", "/a/*/b", "x")).toThrow(/last segment/);
      expect(() => router.add("GET", "/a/:id/:id", "x")).toThrow(/twice/);
      expect(() => router.add("GET", "/a/b c", "x")).toThrow(/invalid segment/);
    });

    it("keeps same-shaped paths of different methods apart", async () => {
      router.add("GET", "/users/:id", "get");
      router.add("DELETE", "/users/:userId", "delete");
      expect(await router.match("DELETE", "/users/u1")).toEqual({
        kind: "found",
        name: "delete",
        params: { userId: "u1" },
      });
    });
  });
}
