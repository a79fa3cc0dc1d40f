/**
 * A route declared once: method, path pattern, query and body validators,
 * answer, error codes, audit action and required capability. The
 * declaration is the route's contract. It imports only `v` and types, so a
 * browser bundle (the dashboard) can import it to get a typed client; the
 * server implements it with `implement` from `@svc/server/routes`, and the
 * router, the OpenAPI document, the docs tables and the fake answers of a
 * preview are derived from it.
 */
import type { ErrorCode } from "../../errors/error-codes.ts";
import type { ObjectType, ObjectValidator, Shape } from "../../values/composites.ts";
import type { AnyValidator, Infer } from "../../values/validator.ts";
import { type ParamsOf, parsePattern } from "./pattern.ts";

/** The methods a declared route can have. */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A body the router does not read: the handler reads `request` itself (a file, CSV text). */
export interface RawBody<
  Content extends Readonly<Record<string, AnyValidator>> = Readonly<Record<string, AnyValidator>>,
> {
  readonly kind: "raw";
  /** What each media type carries, for the docs and the client (`application/json`, `text/csv`). */
  readonly content: Content;
  readonly description: string;
}

/** An answer that is not JSON of a validator: a file or a stream, which the handler builds as a `Response`. */
export interface FileAnswer {
  readonly kind: "file";
  /** The media types it may have, each with the schema of its content where one applies. */
  readonly content: Readonly<Record<string, AnyValidator>>;
  readonly description: string;
}

/** A JSON answer described by its TypeScript type alone (no schema: documented as any JSON). */
export interface TypedAnswer<T> {
  readonly kind: "typed";
  readonly description: string;
  /** Type-only marker; never set at run time. */
  readonly __type?: T;
}

/** What a route answers on success. */
export type AnswerSpec = AnyValidator | FileAnswer | TypedAnswer<unknown>;

/** The declaration of one route: everything the router, the docs and the client need. */
export interface RouteSpec {
  readonly method: RouteMethod;
  /** Relative to the group's prefix: segments, `:name` parameters, a final `*`. */
  readonly path: string;
  /** One line for the docs and the OpenAPI `summary`. */
  readonly summary: string;
  readonly description?: string;
  /** The query string, as a `v.object` of fields (unknown parameters are refused). Absent: none allowed. */
  readonly query?: ObjectValidator<Shape>;
  /** A JSON body (a `v.object` as a rule; absent or empty reads as `{}`) or a {@link RawBody}. Absent: not read. */
  readonly body?: AnyValidator | RawBody;
  /** The success answer: a validator of its JSON, a {@link FileAnswer} or a {@link TypedAnswer}. */
  readonly answer: AnswerSpec;
  /** Success status. @default 200 */
  readonly status?: 200 | 201 | 202;
  /** Error codes the handler itself may answer, beyond those the router adds (see `routerErrorCodes`). */
  readonly errors?: readonly ErrorCode[];
  /** The audit action a call records, success or not; absent for reads. */
  readonly audit?: string;
  /** A capability that must be on for the route to exist; off, it answers as unknown (404). */
  readonly requires?: string;
}

/** A table of routes by name: the name becomes the client's method and the `operationId`. */
export type RouteTable = Readonly<Record<string, RouteSpec>>;

/** Routes that share a path prefix and a tag: one surface (`/_svc/admin/auth/`). */
export interface RouteGroup<Routes extends RouteTable = RouteTable> {
  /** Absolute, with a trailing `/` (`/_svc/admin/auth/`). */
  readonly prefix: string;
  /** The OpenAPI tag of every route of the group. */
  readonly tag: string;
  readonly routes: Routes;
}

/**
 * Declares one route; checks its pattern now, so a typo fails at import
 * rather than at the first request.
 *
 * @example
 * ```ts
 * const banUser = route({
 *   method: "POST",
 *   path: "users/:id/ban",
 *   summary: "Ban a user",
 *   body: v.object({ reason: v.optional(v.string()) }),
 *   answer: v.object({ user: adminUser }),
 *   errors: ["NOT_FOUND", "CONFLICT"],
 *   audit: "user.ban",
 * });
 * ```
 */
export function route<const Spec extends RouteSpec>(spec: Spec): Spec {
  parsePattern(spec.path);
  if (spec.path.startsWith("/"))
    throw new Error(`svc: route ${spec.path} is relative to its group's prefix: drop the "/"`);
  if (spec.body !== undefined && spec.method === "GET")
    throw new Error(`svc: GET ${spec.path} declares a body; GET requests have none`);
  if (spec.query !== undefined && spec.query.kind !== "object")
    throw new Error(`svc: ${spec.method} ${spec.path}: query must be a v.object(...)`);
  return Object.freeze(spec);
}

/**
 * Groups routes under a prefix, refusing two routes with the same method
 * and path shape (`users/:id` and `users/:key` are the same).
 *
 * @example
 * ```ts
 * export const adminAuthRoutes = routeGroup({ prefix: "/_svc/admin/auth/", tag: "auth", routes: { banUser } });
 * ```
 */
export function routeGroup<const Routes extends RouteTable>(group: {
  prefix: string;
  tag: string;
  routes: Routes;
}): RouteGroup<Routes> {
  if (!group.prefix.startsWith("/") || !group.prefix.endsWith("/"))
    throw new Error(`svc: route group prefix ${group.prefix} must start and end with "/"`);
  const seen = new Map<string, string>();
  for (const [name, spec] of Object.entries(group.routes)) {
    const shape = `${spec.method} ${parsePattern(spec.path)
      .map((segment) => ("literal" in segment ? segment.literal : "rest" in segment ? "*" : ":"))
      .join("/")}`;
    const other = seen.get(shape);
    if (other !== undefined) throw new Error(`svc: routes ${other} and ${name} are the same route`);
    seen.set(shape, name);
  }
  return Object.freeze({ ...group });
}

/**
 * A body the handler reads itself, documented per media type.
 *
 * @example
 * ```ts
 * body: rawBody({ "application/json": v.array(v.record(v.any())), "text/csv": v.string() }, "Users to import"),
 * ```
 */
export function rawBody<const Content extends Readonly<Record<string, AnyValidator>>>(
  content: Content,
  description: string,
): RawBody<Content> {
  return Object.freeze({ kind: "raw", content, description });
}

/**
 * A file answer (the handler returns the `Response`), documented per media type.
 *
 * @example
 * ```ts
 * answer: fileAnswer({ "text/csv": v.string(), "application/json": v.array(exportedUser) }, "The users, streamed"),
 * ```
 */
export function fileAnswer(content: Record<string, AnyValidator>, description: string): FileAnswer {
  return Object.freeze({ kind: "file", content, description });
}

/**
 * A JSON answer known by its type only: for an answer no validator can
 * state yet. Prefer a validator: it documents the answer and gives fakes.
 *
 * @example
 * ```ts
 * answer: typedAnswer<{ rows: Row[] }>("The rows"),
 * ```
 */
export function typedAnswer<T>(description: string): TypedAnswer<T> {
  return Object.freeze({ kind: "typed", description });
}

/** Whether an answer spec is JSON described by a validator. */
export function isValidatorAnswer(answer: AnswerSpec): answer is AnyValidator {
  return answer.kind !== "file" && answer.kind !== "typed";
}

/** Whether a body spec is read by the handler itself. */
export function isRawBody(body: AnyValidator | RawBody): body is RawBody {
  return body.kind === "raw";
}

type Empty = Record<never, never>;

/** The path parameters of a route. */
export type RouteParams<Spec extends RouteSpec> = ParamsOf<Spec["path"]>;

/** The parsed query of a route (every field optional unless declared required). */
export type RouteQuery<Spec extends RouteSpec> = Spec extends { query: ObjectValidator<infer S> }
  ? ObjectType<S>
  : Empty;

/** The parsed body of a route: the validator's type; `undefined` for a raw or absent body. */
export type RouteBody<Spec extends RouteSpec> = Spec extends { body: infer B }
  ? B extends RawBody
    ? undefined
    : Infer<B>
  : undefined;

/** What a route's handler returns: the answer's value, or a `Response` for a file answer. */
export type RouteAnswer<Spec extends RouteSpec> = Spec["answer"] extends FileAnswer
  ? Response
  : Spec["answer"] extends TypedAnswer<infer T>
    ? T
    : Infer<Spec["answer"]>;
