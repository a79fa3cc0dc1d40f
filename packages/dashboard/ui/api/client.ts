import type { RouteTransport } from "@svc/server/routes/contract";

/**
 * The one door to the admin API. It puts the admin token in the
 * `Authorization` header (never in a URL, never in a log), turns every failure
 * into an {@link ApiError} whose message is the problem-details `detail`, and
 * reports a 401 so the app can forget the token and show sign-in again.
 */

/** Where every admin route lives. */
export const ADMIN_PREFIX = "/_svc/admin/";

/** One rejected field of a `VALIDATION_FAILED` answer. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * An admin API failure, ready to show: `message` is the server's `detail`
 * (or a plain sentence when the server sent none), `code` the problem code
 * for branching (`NETWORK` when the server could not be reached).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly issues: readonly FieldIssue[];

  constructor(status: number, code: string, detail: string, issues: readonly FieldIssue[] = []) {
    super(detail);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

/**
 * Whether trying the same request again could succeed: the server was
 * unreachable, overloaded or failed (0, 429, 5xx), not a refusal about the
 * request itself (404, 409, 400).
 */
export function isRetryable(error: Error): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/** Query values; `undefined` and `""` are left out of the URL. */
export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/** Options of {@link createAdminClient}. */
export interface AdminClientOptions {
  /** The admin token (`SVC_ADMIN_TOKEN` or one of the named tokens). */
  token: string;
  /** Origin of the app; default: the page's own origin (relative URLs). */
  origin?: string;
  /** Injected for tests; default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Called on every 401, before the error is thrown, so the app can return to sign-in. */
  onUnauthenticated?: (error: ApiError) => void;
}

/** Per-call options. */
export interface CallOptions {
  query?: QueryParams;
  /** Sent as JSON. */
  body?: object;
  /** Sent as is, for a body that is not JSON (a CSV file's chunk): `type` is its content-type. */
  text?: { type: string; content: string };
  /** Aborts a call whose answer is no longer wanted (a newer search, a closed drawer). */
  signal?: AbortSignal;
}

/** The HTTP methods the admin API answers. */
export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Typed HTTP verbs over `/_svc/admin/`; paths are relative to it (`auth/users`). */
export interface AdminClient {
  request<T>(method: Method, path: string, options?: CallOptions): Promise<T>;
  /**
   * The successful answer itself, unread, for a streamed file (`users/export`):
   * a plain link cannot carry the bearer token, so the page reads the stream.
   */
  response(method: Method, path: string, options?: CallOptions): Promise<Response>;
}

/**
 * The client as a transport for clients derived from route declarations
 * (`createRouteClient`): the request's absolute path goes through the same
 * door, so the token and the errors are handled once.
 */
export function routeTransport(client: AdminClient): RouteTransport {
  return (request) =>
    // Route declarations only use the methods the admin API answers.
    client.response(request.method as Method, request.path.slice(ADMIN_PREFIX.length), {
      ...(request.body ? { text: { type: request.body.type, content: request.body.text } } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
}

/** Joins path segments, escaping each, so an id can never change the route. */
export function pathOf(...segments: readonly string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join("/");
}

/** `?a=1&b=x` from the defined, non-empty values, or `""`. */
export function queryString(query: QueryParams | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === "") continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function issuesOf(value: unknown): FieldIssue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (issue): issue is FieldIssue =>
      isRecord(issue) && typeof issue.path === "string" && typeof issue.message === "string",
  );
}

/**
 * Reads a non-2xx answer into an {@link ApiError}. Problem details give the
 * detail and code; anything else (a proxy's HTML page) still gives a sentence
 * a person can act on.
 */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const fallback = `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const body: unknown = await response.json().catch(() => undefined);
    if (isRecord(body)) {
      const detail = typeof body.detail === "string" && body.detail !== "" ? body.detail : fallback;
      const code = typeof body.code === "string" ? body.code : `HTTP_${response.status}`;
      return new ApiError(response.status, code, detail, issuesOf(body.errors));
    }
  }
  return new ApiError(response.status, `HTTP_${response.status}`, fallback);
}

/** Builds the client the whole dashboard shares while a token is signed in. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const origin = options.origin ?? "";
  const response = async (method: Method, path: string, call: CallOptions = {}) => {
    const headers: Record<string, string> = {
      accept: "application/json",
      authorization: `Bearer ${options.token}`,
    };
    const init: RequestInit = {
      method,
      headers,
      // Admin answers are personal data: no cookies sent, nothing cached.
      credentials: "omit",
      cache: "no-store",
    };
    if (call.signal) init.signal = call.signal;
    if (call.text) {
      headers["content-type"] = call.text.type;
      init.body = call.text.content;
    } else if (method === "POST" || method === "PATCH" || method === "PUT") {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(call.body ?? {});
    }
    let answer: Response;
    try {
      answer = await send(`${origin}${ADMIN_PREFIX}${path}${queryString(call.query)}`, init);
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new ApiError(
        0,
        "NETWORK",
        "Could not reach the server. Check that the app is running, then try again.",
      );
    }
    if (!answer.ok) {
      const error = await errorFromResponse(answer);
      if (answer.status === 401) options.onUnauthenticated?.(error);
      throw error;
    }
    return answer;
  };
  return {
    response,
    async request<T>(method: Method, path: string, call: CallOptions = {}) {
      const answer = await response(method, path, call);
      try {
        return (await answer.json()) as T;
      } catch {
        throw new ApiError(
          answer.status,
          "BAD_RESPONSE",
          "The server sent an answer the dashboard could not read.",
        );
      }
    },
  };
}
