import { D1_BOOKMARK_HEADER } from "@svc/auth/admin-contract";
import type { RouteTransport } from "@svc/server/routes/contract";

/**
 * The one door to the admin API. It puts the admin token in the
 * `Authorization` header (never in a URL, never in a log), turns every failure
 * into an {@link ApiError} whose message is the problem-details `detail`, and
 * reports a 401 so the app can forget the token and show sign-in again.
 */

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

/**
 * The admin API's transport and JSON reader, for the clients derived from the
 * route declarations (`adminApi`): every request carries the token, and every
 * failure is an {@link ApiError}.
 */
export interface AdminClient {
  /** Sends one request built by a route client; a non-2xx answer throws an {@link ApiError}. */
  send: RouteTransport;
  /** Reads a JSON answer; one that is not JSON is an {@link ApiError} `BAD_RESPONSE`. */
  readJson: (response: Response) => Promise<unknown>;
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
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  const origin = options.origin ?? "";
  // The D1 bookmark of the latest answer: sent back, so a read replica never shows older data.
  let bookmark: string | null = null;
  const send: RouteTransport = async (request) => {
    const headers: Record<string, string> = {
      accept: "application/json",
      authorization: `Bearer ${options.token}`,
      ...(bookmark === null ? {} : { [D1_BOOKMARK_HEADER]: bookmark }),
    };
    const init: RequestInit = {
      method: request.method,
      headers,
      // Admin answers are personal data: no cookies sent, nothing cached.
      credentials: "omit",
      cache: "no-store",
    };
    if (request.signal) init.signal = request.signal;
    if (request.body) {
      headers["content-type"] = request.body.type;
      init.body = request.body.text;
    }
    let answer: Response;
    try {
      answer = await fetcher(`${origin}${request.path}`, init);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new ApiError(
        0,
        "NETWORK",
        "Could not reach the server. Check that the app is running, then try again.",
      );
    }
    bookmark = answer.headers.get(D1_BOOKMARK_HEADER) ?? bookmark;
    if (!answer.ok) {
      const error = await errorFromResponse(answer);
      if (answer.status === 401) options.onUnauthenticated?.(error);
      throw error;
    }
    return answer;
  };
  return {
    send,
    async readJson(answer) {
      try {
        return await answer.json();
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
