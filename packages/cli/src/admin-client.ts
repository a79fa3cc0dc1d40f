import {
  fillPattern,
  type ParamNames,
  type ParamsOf,
  type RouteAnswer,
  type RouteGroup,
  type RouteSpec,
  type RouteTable,
} from "@svc/server/routes/contract";
import { devVar, runningDevUrl } from "./dev-state.ts";
import { SvcCliError } from "./errors.ts";

/** Where the admin commands connect, and with which token. */
export interface AdminConnection {
  /** The app's origin, e.g. `http://127.0.0.1:8787` or `https://app.example.com`. */
  url: string;
  /** The admin token (`SVC_ADMIN_TOKEN`); a named token's operator is recorded in the audit trail. */
  token: string;
}

/** `svc dev`'s address: where admin commands go without `--url` or `SVC_URL`. */
export const DEFAULT_APP_URL = "http://127.0.0.1:8787";

/**
 * The connection of an admin command: `--url`, else `SVC_URL`, else the
 * `svc dev` running for the app in `appDir` (its `.wrangler/svc-dev.json`),
 * else {@link DEFAULT_APP_URL}; `--admin-token`, else `SVC_ADMIN_TOKEN`
 * (preferred: a flag shows in the process list), else, for the local dev
 * server, the app's `.dev.vars`. No token is a clear error, not a 401.
 *
 * @example
 * ```ts
 * const client = new AdminClient(adminConnection({ url: values.url, adminToken: values["admin-token"] }));
 * ```
 */
export function adminConnection(
  flags: { url?: string | undefined; adminToken?: string | undefined; appDir?: string | undefined },
  env: Record<string, string | undefined> = process.env,
): AdminConnection {
  const appDir = flags.appDir ?? ".";
  const given = flags.url ?? env.SVC_URL;
  const url = given ?? runningDevUrl(appDir) ?? DEFAULT_APP_URL;
  const token =
    flags.adminToken ??
    env.SVC_ADMIN_TOKEN ??
    (given === undefined ? devVar(appDir, "SVC_ADMIN_TOKEN") : undefined);
  if (token === undefined || token === "") {
    throw new SvcCliError(
      "ADMIN_TOKEN_MISSING",
      "svc: admin commands need the app's admin token: set SVC_ADMIN_TOKEN (or pass --admin-token)",
    );
  }
  try {
    new URL(url);
  } catch {
    throw new SvcCliError("BAD_USAGE", `svc: --url ${JSON.stringify(url)} is not a URL`);
  }
  return { url: url.replace(/\/+$/, ""), token };
}

/** An RFC 9457 problem as svc answers it. */
interface Problem {
  status?: number;
  code?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
  data?: unknown;
}

/** A request options bag of {@link AdminClient.request}. */
export interface AdminRequest {
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** A raw body (a stream is sent as it is read) with its content type. */
  body?: ReadableStream<Uint8Array> | Uint8Array | string;
  contentType?: string;
}

/** What {@link AdminClient.call} sends to one declared route: its path parameters, query and body. */
export type AdminCallInput<Spec extends RouteSpec> = AdminRequest &
  ([ParamNames<Spec["path"]>] extends [never]
    ? { params?: undefined }
    : { params: ParamsOf<Spec["path"]> });

/**
 * The admin API over HTTP for the `svc` commands (`svc shards`, `svc
 * backup`, `svc restore`, and any command under `/_svc/admin/`): calls a
 * route of the one route contract by its name (the path comes from the
 * declaration, the answer is typed by it), sends the bearer token, and
 * turns an error answer into an {@link SvcCliError} whose message shows the
 * status, the svc code, the detail and each invalid field, which the `svc`
 * bin prints as it is.
 *
 * @example
 * ```ts
 * const page = await client.answer(dataAdminRoutes, "listShards", { query: { limit: 50 } });
 * ```
 */
export class AdminClient {
  readonly #connection: AdminConnection;

  constructor(connection: AdminConnection) {
    this.#connection = connection;
  }

  /** The absolute URL of a declared route, its parameters filled in. */
  urlOf<Routes extends RouteTable, Name extends keyof Routes & string>(
    group: RouteGroup<Routes>,
    name: Name,
    input: AdminCallInput<Routes[Name]>,
  ): string {
    return this.#url(this.#pathOf(group, name, input), input.query);
  }

  /** Sends a declared route's request; answers the response when it succeeded, else throws the problem, explained. */
  call<Routes extends RouteTable, Name extends keyof Routes & string>(
    group: RouteGroup<Routes>,
    name: Name,
    input: AdminCallInput<Routes[Name]>,
  ): Promise<Response> {
    const spec = group.routes[name] as RouteSpec;
    return this.#request(spec.method, this.#pathOf(group, name, input), input);
  }

  /** {@link call}, answering the parsed JSON body as the declaration types it. */
  async answer<Routes extends RouteTable, Name extends keyof Routes & string>(
    group: RouteGroup<Routes>,
    name: Name,
    input: AdminCallInput<Routes[Name]>,
  ): Promise<RouteAnswer<Routes[Name]>> {
    return (await (await this.call(group, name, input)).json()) as RouteAnswer<Routes[Name]>;
  }

  #pathOf<Routes extends RouteTable>(
    group: RouteGroup<Routes>,
    name: keyof Routes & string,
    input: { params?: Readonly<Record<string, string>> | undefined },
  ): string {
    const spec = group.routes[name] as RouteSpec;
    return `${group.prefix}${fillPattern(spec.path, input.params ?? {})}`;
  }

  #url(path: string, query: AdminRequest["query"] = {}): string {
    const url = new URL(`${this.#connection.url}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async #request(method: string, path: string, init: AdminRequest): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#connection.token}` };
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.body !== undefined) {
      headers["content-type"] = init.contentType ?? "application/octet-stream";
      body = init.body as BodyInit;
    }
    const url = this.#url(path, init.query);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (error) {
      const reason = error instanceof Error ? (error.cause ?? error).toString() : String(error);
      throw new SvcCliError(
        "ADMIN_UNREACHABLE",
        `svc: could not reach ${this.#connection.url} (${reason}); is the app running? (--url / SVC_URL)`,
      );
    }
    if (!response.ok) throw await requestFailed(method, path, response);
    return response;
  }
}

async function requestFailed(
  method: string,
  path: string,
  response: Response,
): Promise<SvcCliError> {
  const text = await response.text();
  let problem: Problem = {};
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = { detail: text.slice(0, 500) };
  }
  const lines = [
    `svc: ${method} ${path} failed: ${response.status}${problem.code ? ` ${problem.code}` : ""}`,
    ...(problem.detail ? [`  ${problem.detail}`] : []),
    ...(problem.errors ?? []).map((issue) => `  - ${issue.path}: ${issue.message}`),
  ];
  if (response.status === 401) {
    lines.push("  (check the admin token: SVC_ADMIN_TOKEN or --admin-token)");
  }
  return new SvcCliError("ADMIN_REQUEST_FAILED", lines.join("\n"));
}
