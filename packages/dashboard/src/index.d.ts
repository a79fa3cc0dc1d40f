import type { DashboardAssets } from "@svc/server";

/**
 * The built dashboard, as `createWorker` serves it at `/_svc/dashboard/`:
 * `index.html`, `app.js`, `app.css` and `icon.svg`, each a string with its
 * content type. The admin surface carries it (`createAuthAdmin(auth, {
 * dashboard: dashboardAssets })` from `@svc/auth`, as `authAdmin.dashboard`),
 * so an app gets the dashboard with nothing to upload or bind.
 *
 * The value comes from `dist/index.js`, written by `npm run build` in this
 * package (the root `npm test` and `npm start` build it first); this file is
 * its type, so the package typechecks before a build.
 *
 * @see ../README.md
 */
export declare const dashboardAssets: DashboardAssets;
