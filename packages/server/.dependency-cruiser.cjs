/**
 * The layer map of `@svc/server` (packages/server/ARCHITECTURE.md), as
 * dependency-cruiser rules: a file may import only files of its own layer or
 * of a layer listed before it, and the folders a layer marks `independent`
 * do not import each other. `npm run lint` (so `npm test`) runs it, and any
 * import against the map fails the run: there is no list of exceptions.
 *
 * @example
 * ```sh
 * npx depcruise packages/server/src --config packages/server/.dependency-cruiser.cjs
 * ```
 */

const SRC = "^packages/server/src/";

/**
 * Bottom first. `paths` are regular expressions under `src/`; a file belongs
 * to the first layer, counted from the top, whose paths match it.
 */
const LAYERS = [
  { name: "foundation", paths: ["errors/", "version\\.ts$", "telemetry\\.ts$"] },
  { name: "values", paths: ["values/"] },
  { name: "model", paths: ["model/"] },
  { name: "schema", paths: ["schema/"] },
  { name: "db", paths: ["db/"] },
  { name: "durable", paths: ["durable/"] },
  { name: "observability", paths: ["observability/", "otlp/"] },
  { name: "http", paths: ["http/"] },
  { name: "limits", paths: ["limits/"] },
  { name: "routes", paths: ["routes/"] },
  { name: "shard-features", paths: ["backups/", "migrations/"], independent: true },
  { name: "registry-and-storage", paths: ["registry/", "storage/"], independent: true },
  { name: "procedures", paths: ["procedures/"] },
  { name: "dispatch", paths: ["dispatch/"] },
  {
    name: "shard-runners",
    paths: ["scheduler/", "studio/", "subscriptions/"],
    independent: true,
  },
  { name: "shard", paths: ["shard/"] },
  { name: "worker", paths: ["worker/"] },
  {
    name: "transports",
    paths: ["rpc/", "rest/", "http-actions/", "queue/", "cron/"],
    independent: true,
  },
  { name: "app-description", paths: ["manifest/", "openapi/"] },
  {
    name: "admin",
    paths: [
      "data-admin/",
      "logs-admin/",
      "schedules-admin/",
      "storage/admin-routes\\.ts$",
      "codegen/",
    ],
    independent: true,
  },
  { name: "create-worker", paths: ["create-worker/", "create-worker\\.ts$"] },
  {
    name: "entries",
    paths: ["index\\.ts$", "internal\\.ts$", "entries/", "codegen/index\\.ts$", "otlp/index\\.ts$"],
  },
];

const anyOf = (paths) => `${SRC}(${paths.join("|")})`;

/** A layer's own files: its paths less those a higher layer claims. */
function filesOf(index) {
  const higher = LAYERS.slice(index + 1).flatMap((layer) => layer.paths);
  return higher.length > 0
    ? { path: anyOf(LAYERS[index].paths), pathNot: anyOf(higher) }
    : { path: anyOf(LAYERS[index].paths) };
}

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer.name}-imports-upward`,
  comment: `${layer.name} may import only its own layer and the ones below it (packages/server/ARCHITECTURE.md)`,
  severity: "error",
  from: filesOf(index),
  to: { path: anyOf(LAYERS.slice(index + 1).flatMap((higher) => higher.paths)) },
}));

const siblings = LAYERS.flatMap((layer, index) =>
  layer.independent
    ? layer.paths.map((own) => ({
        name: `${layer.name}-siblings-import-each-other`,
        comment: `the folders of ${layer.name} do not import each other (packages/server/ARCHITECTURE.md)`,
        severity: "error",
        from: { ...filesOf(index), path: `${SRC}(${own})` },
        to: { ...filesOf(index), path: anyOf(layer.paths.filter((other) => other !== own)) },
      }))
    : [],
);

module.exports = {
  forbidden: [
    ...upward,
    ...siblings,
    {
      name: "no-circular",
      comment: "files of @svc/server import each other in a loop",
      severity: "error",
      from: { path: SRC },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: SRC,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.workers.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default"] },
  },
};
