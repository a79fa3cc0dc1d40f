/**
 * A typed client derived from a route group: one method per route, taking
 * `{ params, query, body }` as the contract types them and answering the
 * contract's answer type. Paths, encodings and bodies are built here from
 * the declarations, so a caller never spells a URL.
 */
import type { ObjectType, ObjectValidator, Shape } from "../../values/composites.ts";
import type { Infer } from "../../values/validator.ts";
import { fillPattern, type ParamNames, type ParamsOf } from "./pattern.ts";
import {
  type FileAnswer,
  isRawBody,
  type RawBody,
  type RouteAnswer,
  type RouteGroup,
  type RouteSpec,
  type RouteTable,
} from "./route.ts";

/** One request as the client hands it to its transport. */
export interface RouteRequest {
  method: string;
  /** Absolute path with the query string (`/_svc/admin/auth/users?limit=10`). */
  path: string;
  /** The body, already encoded, with its media type. */
  body?: { type: string; text: string };
  signal?: AbortSignal;
}

/**
 * Sends a request and answers the `Response`. It owns credentials and
 * origin, and decides how a non-2xx answer fails (a transport that throws
 * its own error type on non-2xx keeps the client's callers uniform).
 */
export type RouteTransport = (request: RouteRequest) => Promise<Response>;

/** A raw body as the client sends it: one of the route's media types and its content. */
export type RawPayload<Body extends RawBody> = {
  [Type in keyof Body["content"] & string]: {
    type: Type;
    content: Type extends `${string}json` ? Infer<Body["content"][Type]> : string;
  };
}[keyof Body["content"] & string];

type Empty = Record<never, never>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<T> = { [K in keyof T]-?: Empty extends Pick<T, K> ? never : K }[keyof T];
type Wrap<Key extends string, T> = [RequiredKeys<T>] extends [never]
  ? { [K in Key]?: T }
  : { [K in Key]: T };

/** Query values as a client sends them: each field as the contract types it. */
type ClientQuery<Spec extends RouteSpec> = Spec extends {
  query: ObjectValidator<infer S extends Shape>;
}
  ? Wrap<"query", ObjectType<S>>
  : Empty;

type ClientBody<Spec extends RouteSpec> = Spec extends { body: infer B }
  ? B extends RawBody
    ? { body: RawPayload<B> }
    : Wrap<"body", Infer<B>>
  : Empty;

type ClientParams<Spec extends RouteSpec> = [ParamNames<Spec["path"]>] extends [never]
  ? Empty
  : { params: ParamsOf<Spec["path"]> };

/** The input of one route's client method. */
export type RouteInput<Spec extends RouteSpec> = Simplify<
  ClientParams<Spec> & ClientQuery<Spec> & ClientBody<Spec> & { signal?: AbortSignal }
>;

/** One route's client method; its input may be left out when nothing in it is required. */
export type RouteMethodOf<Spec extends RouteSpec> = [RequiredKeys<RouteInput<Spec>>] extends [never]
  ? (input?: RouteInput<Spec>) => Promise<RouteAnswer<Spec>>
  : (input: RouteInput<Spec>) => Promise<RouteAnswer<Spec>>;

/** The client of a route group: a method per route name. */
export type RouteClient<Routes extends RouteTable> = {
  readonly [Name in keyof Routes]: RouteMethodOf<Routes[Name]>;
};

/** What a client needs of one route at run time: no validators, so a browser bundle stays small. */
export interface ClientRoute {
  readonly method: RouteSpec["method"];
  readonly path: string;
  /** How the body is sent: JSON, or a raw payload with its own media type; absent: no body. */
  readonly body?: "json" | "raw";
  /** `file`: the client answers the `Response` itself. */
  readonly answer: "json" | "file";
}

/**
 * A route group reduced to what a client needs at run time, typed by the
 * group's table (imported as a type only): what a generated client module
 * holds (`routeManifest`), so the browser never loads the validators.
 */
export interface RouteManifest<Routes extends RouteTable> {
  readonly prefix: string;
  readonly routes: { readonly [Name in keyof Routes]: ClientRoute };
}

/** One declared route as a client sees it. */
export function clientRouteOf(spec: RouteSpec): ClientRoute {
  return {
    method: spec.method,
    path: spec.path,
    ...(spec.body === undefined ? {} : { body: isRawBody(spec.body) ? "raw" : "json" }),
    answer: (spec.answer as FileAnswer).kind === "file" ? "file" : "json",
  };
}

/**
 * The manifest of a route group: method, path, body kind and answer kind per
 * route, for a generated client module.
 *
 * @example
 * ```ts
 * const manifest = routeManifest(adminAuthRoutes); // { prefix, routes: { listUsers: { method: "GET", path: "users", answer: "json" }, … } }
 * ```
 */
export function routeManifest<Routes extends RouteTable>(
  group: RouteGroup<Routes>,
): RouteManifest<Routes> {
  const routes: Record<string, ClientRoute> = {};
  for (const [name, spec] of Object.entries(group.routes)) routes[name] = clientRouteOf(spec);
  return { prefix: group.prefix, routes: routes as RouteManifest<Routes>["routes"] };
}

/** Options of {@link createRouteClient}. */
export interface RouteClientOptions {
  /** Reads a JSON answer; a caller can turn an unreadable one into its own error. @default response.json() */
  readJson?: (response: Response) => Promise<unknown>;
}

/** Query values; `undefined` and `""` are left out of the URL. */
export function queryStringOf(query: Readonly<Record<string, unknown>> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === "") continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

interface LooseInput {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
  signal?: AbortSignal;
}

function encodeBody(route: ClientRoute, body: unknown): RouteRequest["body"] {
  if (route.body === undefined) return undefined;
  if (route.body === "raw") {
    const { type, content } = body as { type: string; content: unknown };
    return {
      type,
      text: type.endsWith("json") ? JSON.stringify(content) : String(content),
    };
  }
  return { type: "application/json", text: JSON.stringify(body ?? {}) };
}

/**
 * Builds the client of a route group over a transport. JSON answers are
 * parsed; a {@link FileAnswer} route answers the `Response` itself (a
 * download reads its stream). A non-2xx answer the transport let through
 * throws an `Error` with the problem's `detail`.
 *
 * @example
 * ```ts
 * const admin = createRouteClient(adminAuthRoutes, (request) =>
 *   fetch(request.path, {
 *     method: request.method,
 *     headers: { authorization: `Bearer ${token}`, ...(request.body ? { "content-type": request.body.type } : {}) },
 *     body: request.body?.text,
 *   }),
 * );
 * const { user } = await admin.banUser({ params: { id: "u1" }, body: { reason: "spam" } });
 * ```
 */
export function createRouteClient<Routes extends RouteTable>(
  source: RouteGroup<Routes> | RouteManifest<Routes>,
  transport: RouteTransport,
  options: RouteClientOptions = {},
): RouteClient<Routes> {
  const readJson = options.readJson ?? ((response: Response) => response.json());
  const client: Record<string, (input?: LooseInput) => Promise<unknown>> = {};
  const group = source;
  for (const [name, declared] of Object.entries<RouteSpec | ClientRoute>(source.routes)) {
    const spec = "summary" in declared ? clientRouteOf(declared) : declared;
    client[name] = async (input: LooseInput = {}) => {
      const path = `${group.prefix}${fillPattern(spec.path, input.params ?? {})}${queryStringOf(input.query)}`;
      const body = encodeBody(spec, input.body);
      const response = await transport({
        method: spec.method,
        path,
        ...(body ? { body } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => ({}))) as { detail?: unknown };
        throw new Error(
          typeof problem.detail === "string"
            ? problem.detail
            : `${spec.method} ${path} answered ${response.status}`,
        );
      }
      if (spec.answer === "file") return response;
      return readJson(response);
    };
  }
  return client as RouteClient<Routes>;
}
