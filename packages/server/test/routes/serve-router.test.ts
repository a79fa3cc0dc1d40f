import {
  implement,
  type RouteSpec,
  route,
  routeGroup,
  serveRoutes,
  v,
} from "../../src/entries/routes.ts";
import { runRouterSuite } from "./router.case.ts";

/** Declared route groups (the admin API) route through the shared engine: the one suite over `serveRoutes`. */
runRouterSuite(() => {
  const routes: Record<string, RouteSpec> = {};
  const build = () => {
    const group = routeGroup({ prefix: "/p/", tag: "test", routes });
    const handlers = Object.fromEntries(
      Object.keys(routes).map((name) => [
        name,
        async ({ params }: { params: Record<string, string> }) => ({ name, params }),
      ]),
    );
    return serveRoutes(
      implement(group)
        .context<undefined>()
        .handlers(handlers as never),
    );
  };
  return {
    add: (method, pattern, name) => {
      routes[name] = route({
        method,
        path: pattern.slice(1),
        summary: name,
        answer: v.object({ name: v.string(), params: v.record(v.string()) }),
      });
      build();
    },
    match: async (method, path) => {
      const response = await build().handle(new Request(`https://app.test/p${path}`, { method }), {
        path: path.slice(1),
        ctx: undefined,
      });
      if (response.status === 404) return { kind: "none" };
      if (response.status === 405)
        return { kind: "method", allow: (response.headers.get("allow") ?? "").split(", ") };
      const { name, params } = (await response.json()) as {
        name: string;
        params: Record<string, string>;
      };
      return { kind: "found", name, params };
    },
  };
});
