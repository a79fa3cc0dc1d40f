import type { ComponentChildren } from "preact";

/**
 * The head of a page: its title, which takes focus after navigation (see
 * `focusPageHeading`), a line of what the page shows, and the page's
 * actions on the right. One header keeps every page's top alike.
 *
 * @example
 * ```tsx
 * <PageHeader title="Backups" subtitle="Shard backups in the app's R2 bucket.">
 *   <button type="button" class="btn btn-primary">Take a backup</button>
 * </PageHeader>
 * ```
 */
export function PageHeader(props: {
  title: string;
  subtitle?: ComponentChildren;
  /** The page's actions, at the header's right. */
  children?: ComponentChildren;
}) {
  return (
    <header class="page-header">
      <div>
        <h1 class="page-title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.subtitle === undefined ? null : <p class="page-subtitle">{props.subtitle}</p>}
      </div>
      {props.children}
    </header>
  );
}
