import type { ProcedureInfo } from "../../api/data.ts";

/** A procedure's kind, whether clients can call it, and whether REST publishes it; writers stand out. */
export function ProcedureBadges(props: { info: ProcedureInfo }) {
  const { info } = props;
  const writes = info.kind === "mutation" || info.kind === "action";
  return (
    <span class="badges">
      <span class={writes ? "badge badge-warn" : "badge"}>{info.kind}</span>
      {info.visibility === "internal" ? <span class="badge badge-accent">internal</span> : null}
      {info.rest ? <span class="badge badge-ok">REST</span> : null}
    </span>
  );
}
