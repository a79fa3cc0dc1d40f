import type { DataAuditEntry } from "../model/data-audit.ts";
import type { Identity } from "../model/identity.ts";
import type { PublishedRoutes } from "../routes/contract/published.ts";

/**
 * What `createWorker` needs from the admin surface (`createAuthAdmin` in
 * `@svc/auth` builds one). Declared here so `@svc/server` never imports
 * `@svc/auth`.
 */
export interface AuthAdminSurface {
  /**
   * Answers a request under `/_svc/admin/auth/`. The admin gate has already
   * admitted it; `operator` names the admin token used; `path` is the rest of
   * the URL path (`users/u1/ban`).
   */
  handle(request: Request, context: { path: string; operator: string }): Promise<Response>;
  /**
   * Answers a request under `/_svc/admin/auth/link/`: one-time links an
   * operator created through `handle` (e.g. "open the app as this user").
   * The admin gate does NOT run: the single-use code in `path` is the only
   * credential, so the browser that opens the link needs no admin token.
   */
  handleLink?(request: Request, context: { path: string }): Promise<Response>;
  /**
   * The route groups `handle` serves and which of their routes exist here
   * (capabilities decide): how `GET /_svc/admin/admin-openapi.json` lists
   * the auth routes beside `createWorker`'s own.
   */
  routes?(): Promise<PublishedRoutes>;
  /**
   * The identity procedures would see for a user, found by id or by email,
   * or `null` when there is no such user: how the data studio views a table
   * and runs a procedure as that user (`/_svc/admin/data/`). Without it only
   * the operator, anonymous and service views exist.
   */
  lookupIdentity?(idOrEmail: string): Promise<Identity | null>;
  /**
   * Records a data action (`/_svc/admin/data/*`: shard deletion, export,
   * import, backup, restore) in the admin audit trail, so the dashboard's
   * Audit page shows it beside the user actions. Without it, `createWorker`
   * logs each data action as a JSON line instead.
   */
  recordDataAction?(entry: DataAuditEntry): Promise<void>;
  /** The dashboard's built files; `createWorker` serves them at `/_svc/dashboard/`. */
  readonly dashboard?: DashboardAssets;
}

/** The dashboard as files: `index.html` plus assets, each with its content type. */
export interface DashboardAssets {
  readonly files: Readonly<Record<string, { readonly body: string; readonly contentType: string }>>;
}
