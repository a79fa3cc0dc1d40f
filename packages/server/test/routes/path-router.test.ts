import { PathRouter } from "../../src/routes/path-router.ts";
import { runRouterSuite } from "./router.case.ts";

runRouterSuite(() => {
  const router = new PathRouter<string>();
  return {
    add: (method, pattern, name) => router.add(method, pattern, name),
    match: async (method, path) => {
      const found = router.match(method, path);
      return found.kind === "found"
        ? { kind: "found", name: found.value, params: found.params }
        : found;
    },
  };
});
