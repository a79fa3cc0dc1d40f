import { Link } from "../lib/navigation.tsx";
import { documentHref } from "../lib/routes.ts";

/**
 * A document's id that leads to that document (its table on the Data page,
 * filtered to it), wherever a `v.id("table")` value is shown. The id stays
 * the text, so it can still be read and copied.
 *
 * @example <DocumentIdLink shard="room-1" table="messages" id={note.messageId} />
 */
export function DocumentIdLink(props: { shard: string; table: string; id: string }) {
  return (
    <Link
      class="mono"
      href={documentHref(props.shard, props.table, props.id)}
      title={`Open ${props.table} document ${props.id}`}
    >
      {props.id}
    </Link>
  );
}
