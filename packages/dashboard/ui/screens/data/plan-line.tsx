import type { BrowsePlan } from "../../api/data.ts";

/**
 * How the newest page was served: by which index (and which of its keys were
 * pinned or bounded) or search index, or by a scan that checked each row, and how many rows
 * it read; a scan that stopped at its limit says so, and "Keep scanning" goes on.
 */
export function PlanLine(props: { plan: BrowsePlan }) {
  const { plan } = props;
  const pinned = plan.eqFields.length > 0 ? ` (${plan.eqFields.join(", ")} equal)` : "";
  const ranged = plan.rangeField !== null ? `, ${plan.rangeField} in range` : "";
  const read = `${plan.scanned.toLocaleString("en")} ${plan.scanned === 1 ? "row" : "rows"} read`;
  const order =
    plan.order === "relevance"
      ? "most relevant first"
      : plan.order === "asc"
        ? "ascending"
        : "descending";
  return (
    <p class="plan-line muted small">
      {plan.order === "relevance" ? "Search index" : "Index"} <code>{plan.index}</code>
      {pinned}
      {ranged}, {order} ·{" "}
      {plan.served === "index" ? (
        <>served by the index · {read}</>
      ) : (
        <>
          scan: {plan.scanFields.join(", ")} checked row by row (no index serves{" "}
          {plan.scanFields.length === 1 ? "it" : "them"}) · {read}
          {plan.scanLimited ? (
            <strong>
              {" "}
              · stopped at the scan limit of {plan.scanLimit.toLocaleString("en")} rows
            </strong>
          ) : null}
        </>
      )}
    </p>
  );
}
