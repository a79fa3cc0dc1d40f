import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { parseRoute, type Route } from "./routes.ts";

const NAVIGATE_EVENT = "svc:navigate";

/** What a screen with unsaved work says about leaving for `href`: a question, or `null` to let it go. */
type LeaveGuard = (href: string) => string | null;

const leaveGuards = new Set<LeaveGuard>();

/**
 * Asks before the dashboard leaves a screen holding unsaved work (staged
 * edits): `guard` gets the address a link or `navigate` goes to and answers
 * the question to confirm, or `null` when that address keeps the work. A
 * reload or a closed tab gets the browser's own question meanwhile.
 *
 * @example useLeaveGuard(staged.length > 0 ? (href) => (same(href) ? null : "Discard?") : null)
 */
export function useLeaveGuard(guard: LeaveGuard | null): void {
  useEffect(() => {
    if (guard === null) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    leaveGuards.add(guard);
    addEventListener("beforeunload", onUnload);
    return () => {
      leaveGuards.delete(guard);
      removeEventListener("beforeunload", onUnload);
    };
  }, [guard]);
}

/** Moves to a dashboard URL without a page load (pushes history unless `replace`), unless a screen's leave guard is declined. */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  for (const guard of leaveGuards) {
    const question = guard(href);
    if (question !== null && !confirm(question)) return;
  }
  if (options.replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  dispatchEvent(new Event(NAVIGATE_EVENT));
}

/**
 * Moves focus to the new screen's heading once it has rendered, when the
 * control that had focus went away with the old screen (a deleted item's
 * page): focus would otherwise fall to the page body. The heading needs
 * `tabIndex={-1}`.
 */
export function focusPageHeading(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>("#main h1")?.focus());
}

function currentRoute(): Route {
  return parseRoute(location.pathname, location.search);
}

/** The route of the current URL, updated on links, `navigate` and back/forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener("popstate", update);
    addEventListener(NAVIGATE_EVENT, update);
    return () => {
      removeEventListener("popstate", update);
      removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  return route;
}

/** What the dashboard's links set besides `href`. */
interface LinkProps {
  href: string;
  class?: string;
  "aria-current"?: "page";
  "aria-label"?: string;
  /** The full text when the link's text may be cut short with an ellipsis. */
  title?: string;
  children: ComponentChildren;
}

/**
 * A real `<a href>` (so it can be opened in a new tab, focused and followed
 * with Enter) that navigates in place on a plain click.
 */
export function Link(props: LinkProps) {
  const { href, children, ...rest } = props;
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}
