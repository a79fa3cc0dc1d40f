import type { ViewerLabel } from "../../api/data.ts";

/** Whom a view shows rows for, in words. */
export function viewerName(viewer: ViewerLabel): string {
  switch (viewer.kind) {
    case "operator":
      return "the operator";
    case "anonymous":
      return "an anonymous caller";
    case "service":
      return "the service identity";
    case "user":
      return viewer.email ?? viewer.name ?? viewer.userId;
  }
}

/**
 * Says, always and above the rows, whom the table is viewed as: the
 * operator (every row) or a caller whose row-level security hides what they
 * may not read. A view as someone else is drawn as a warning, so it is never
 * taken for the whole table.
 */
export function ViewerBanner(props: { viewer: ViewerLabel | undefined; asked: string }) {
  const { viewer } = props;
  if (viewer === undefined) {
    return (
      <p class="viewer-banner" role="status">
        {props.asked === "" ? "Viewing as the operator…" : `Viewing as ${props.asked}…`}
      </p>
    );
  }
  if (viewer.kind === "operator") {
    return (
      <p class="viewer-banner" role="status">
        <span class="badge">As operator</span> Every row of the table; row-level security does not
        apply.
      </p>
    );
  }
  return (
    <p class="viewer-banner viewer-banner-as" role="status">
      <span class="badge badge-warn">Viewing as {viewerName(viewer)}</span>{" "}
      {viewer.kind === "user" ? <span class="mono small">{viewer.userId}</span> : null} Row-level
      security applies exactly as on this caller's own reads: rows they may not read are hidden.
      Edits still apply as the operator.
    </p>
  );
}
