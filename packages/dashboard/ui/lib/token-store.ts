/**
 * Where the admin token lives while the dashboard is open: `sessionStorage`
 * only, so it dies with the tab and never reaches disk-backed
 * `localStorage`, a cookie or a URL. Sign-out removes it.
 */

const KEY = "svc.dashboard.adminToken";

/** The token of this tab's signed-in session, or null. */
export function readToken(storage: Storage = sessionStorage): string | null {
  const token = storage.getItem(KEY);
  return token === null || token === "" ? null : token;
}

/** Keeps a token the server has just accepted. */
export function saveToken(token: string, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, token);
}

/** Forgets the token (sign-out, or the server refused it). */
export function clearToken(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY);
}
