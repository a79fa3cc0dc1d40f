import type { FieldIssue } from "../../api/client.ts";
import type { StudioDocument } from "../../api/data.ts";

/**
 * An edit waiting for review: a new document, a replacement of one, or a
 * deletion. Nothing reaches the server until the operator reviews the list
 * and applies it; a refused change stays staged with the server's answer.
 */
export type StagedChange =
  | { kind: "insert"; key: string; fields: Record<string, unknown>; problem?: Problem }
  | {
      kind: "replace";
      key: string;
      before: StudioDocument;
      fields: Record<string, unknown>;
      problem?: Problem;
    }
  | { kind: "delete"; key: string; before: StudioDocument; problem?: Problem };

/** Why the server refused a staged change: its message and, for invalid fields, each issue. */
export interface Problem {
  message: string;
  issues: readonly FieldIssue[];
}

let counter = 0;

/** A key for a new document's staged insert (it has no id yet). */
export function newInsertKey(): string {
  counter += 1;
  return `new-${counter}`;
}

/** Adds a change, replacing an earlier one staged for the same document. */
export function stage(list: readonly StagedChange[], change: StagedChange): StagedChange[] {
  const index = list.findIndex((item) => item.key === change.key);
  if (index === -1) return [...list, change];
  return list.map((item, position) => (position === index ? change : item));
}

/** The fields whose values a replacement changes, added or removed (sorted). */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  names.delete("_id");
  names.delete("_creationTime");
  return [...names]
    .filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]))
    .sort();
}
