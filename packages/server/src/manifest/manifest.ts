import type { CronJobs } from "../cron/jobs.ts";
import { CRON_KINDS } from "../cron/run.ts";
import type { HttpRouter } from "../http-actions/router.ts";
import type { ProcedureKind, Visibility } from "../model/call-meta.ts";
import { type FunctionRegistry, isProcedure } from "../procedures/procedure.ts";
import { CONSUMER_KINDS } from "../queue/consume.ts";
import type { QueueConsumers } from "../queue/consumers.ts";
import type { JsonSchema } from "../values/validator.ts";
import { targetPath } from "../worker/server-calls.ts";

/** What codegen and the OpenAPI emitter know about one procedure. Plain JSON. */
export interface ProcedureManifest {
  path: string;
  kind: ProcedureKind;
  visibility: Visibility;
  rest: boolean;
  /** JSON Schema of the arguments object. */
  args: JsonSchema;
  /** JSON Schema of the result, when `.output()` declares one. */
  output: JsonSchema | null;
  summary: string | null;
  description: string | null;
}

/** Describes every procedure of a registry, sorted by path for stable output. */
export function manifestOf(functions: FunctionRegistry): ProcedureManifest[] {
  return Object.entries(functions)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, procedure]) => ({
      path,
      kind: procedure.kind,
      visibility: procedure.visibility,
      rest: procedure.rest,
      args: procedure.args.toJsonSchema(),
      output: procedure.output?.toJsonSchema() ?? null,
      summary: procedure.docs.summary ?? null,
      description: procedure.docs.description ?? null,
    }));
}

/**
 * Builds a registry from module namespaces (`{ "admin/users": module }`): every
 * named export that is a procedure becomes `<namespace>:<export>`.
 */
export function registryFromModules(
  modules: Readonly<Record<string, Record<string, unknown>>>,
): FunctionRegistry {
  const functions: Record<string, FunctionRegistry[string]> = {};
  for (const [namespace, module] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(module)) {
      if (name !== "default" && isProcedure(value)) functions[`${namespace}:${name}`] = value;
    }
  }
  return functions;
}

/** What codegen and the OpenAPI emitter know about one HTTP action route. */
export interface HttpRouteManifest {
  method: string;
  pattern: string;
  /** JSON Schema of the declared arguments; `null` when the action declares none. */
  args: JsonSchema | null;
  summary: string | null;
  description: string | null;
}

/** Describes every route of the app's HTTP router. */
export function httpManifestOf(router: HttpRouter | undefined): HttpRouteManifest[] {
  return (router?.routes ?? []).map(({ method, pattern, action }) => ({
    method,
    pattern,
    args: action.args?.toJsonSchema() ?? null,
    summary: action.docs.summary ?? null,
    description: action.docs.description ?? null,
  }));
}

/** What codegen knows about one cron job. */
export interface CronManifest {
  name: string;
  schedule: string;
  /** The procedure path the job runs. */
  target: string;
  shardKey: string;
}

/** Describes the app's cron jobs; a target outside the registry is an error. */
export function cronManifestOf(
  crons: CronJobs | undefined,
  functions: FunctionRegistry,
): CronManifest[] {
  return (crons?.jobs ?? []).map((job) => {
    const target = targetPath(functions, job.target, CRON_KINDS, `cron job ${job.name}`);
    return { name: job.name, schedule: job.schedule, target, shardKey: job.shardKey };
  });
}

/** What codegen knows about one consumed queue. */
export interface QueueManifest {
  queue: string;
  binding: string | null;
}

/** Describes the queues the app consumes; a consumer of the wrong kind is an error. */
export function queueManifestOf(
  queues: QueueConsumers | undefined,
  functions: FunctionRegistry,
): QueueManifest[] {
  return (queues?.consumers ?? []).map(({ definition, options }) => {
    targetPath(functions, options.run, CONSUMER_KINDS, `consumer of ${definition.queue}`);
    return { queue: definition.queue, binding: definition.binding ?? null };
  });
}
