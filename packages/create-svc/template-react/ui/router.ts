import { useSyncExternalStore } from "react";

/** The app's pages. Unknown paths show the notes (or the sign-in page when signed out). */
export type Route = "/" | "/sign-in" | "/sign-up";

function subscribe(listener: () => void): () => void {
  window.addEventListener("popstate", listener);
  return () => window.removeEventListener("popstate", listener);
}

/** The current path, re-rendered on back/forward and {@link navigate}. */
export function usePath(): string {
  return useSyncExternalStore(
    subscribe,
    () => location.pathname,
    () => "/",
  );
}

/** Goes to `route` without reloading the page. */
export function navigate(route: Route): void {
  history.pushState(null, "", route);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
