import { useEffect, useRef } from "preact/hooks";
import type { UserSort } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import type { UserFilters } from "../../lib/routes.ts";
import { useDraft } from "../../lib/use-draft.ts";

const SORT_OPTIONS: readonly { value: string; label: string }[] = [
  { value: "created:desc", label: "Newest first" },
  { value: "created:asc", label: "Oldest first" },
  { value: "name:asc", label: "Name A–Z" },
  { value: "name:desc", label: "Name Z–A" },
  { value: "email:asc", label: "Email A–Z" },
  { value: "email:desc", label: "Email Z–A" },
  { value: "lastActive:desc", label: "Recently active" },
  { value: "lastActive:asc", label: "Longest inactive" },
  { value: "lastSignIn:desc", label: "Newest sign-in" },
  { value: "lastSignIn:asc", label: "Oldest sign-in" },
];

const SEARCH_DELAY_MS = 250;

/**
 * Search, role, status and sort of the users list. Search waits for a pause
 * in typing; "/" anywhere on the page jumps to it.
 */
export function UserFiltersBar(props: {
  filters: UserFilters;
  onChange: (filters: UserFilters) => void;
}) {
  const { capabilities } = useApp();
  const { filters, onChange } = props;
  const [search, setSearch] = useDraft(filters.search);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (search === latest.current.filters.search) return;
    const timer = setTimeout(
      () => latest.current.onChange({ ...latest.current.filters, search }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    const focusSearch = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest("input, textarea, select, [contenteditable]") != null;
      if (event.key === "/" && !typing && !document.querySelector("dialog[open]")) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    addEventListener("keydown", focusSearch);
    return () => removeEventListener("keydown", focusSearch);
  }, []);

  const placeholder = capabilities.username
    ? "Search name, email or username"
    : "Search name or email";
  return (
    <search class="filters">
      <label class="field field-grow">
        <span class="sr-only">Search users</span>
        <input
          ref={input}
          class="input input-search"
          type="search"
          placeholder={`${placeholder}  ( / )`}
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
          spellcheck={false}
        />
      </label>
      {capabilities.roles.length > 0 ? (
        <label class="field">
          <span class="sr-only">Role</span>
          <select
            class="input"
            value={filters.role}
            onChange={(event) => onChange({ ...filters, role: event.currentTarget.value })}
          >
            <option value="">Any role</option>
            {capabilities.roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {capabilities.userActions ? (
        <label class="field">
          <span class="sr-only">Status</span>
          <select
            class="input"
            value={filters.banned}
            onChange={(event) =>
              onChange({ ...filters, banned: event.currentTarget.value as UserFilters["banned"] })
            }
          >
            <option value="">Any status</option>
            <option value="false">Active</option>
            <option value="true">Banned</option>
          </select>
        </label>
      ) : null}
      <label class="field">
        <span class="sr-only">Sort</span>
        <select
          class="input"
          value={`${filters.sort}:${filters.order}`}
          onChange={(event) => {
            const [sort, order] = event.currentTarget.value.split(":") as [
              UserSort,
              "asc" | "desc",
            ];
            onChange({ ...filters, sort, order });
          }}
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </search>
  );
}
