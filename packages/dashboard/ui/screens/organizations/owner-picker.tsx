import { useEffect, useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Field } from "../../components/form-parts.tsx";

const SEARCH_DELAY_MS = 250;
const MATCHES = 5;

/**
 * Picks an existing user by searching their email or name, for a new
 * organization's owner: the server wants a user id, which an operator does
 * not know by heart. Once picked, the user is shown with a way to change.
 */
export function OwnerPicker(props: {
  owner: User | null;
  onPick: (owner: User | null) => void;
  problem?: string | undefined;
}) {
  const { api } = useApp();
  const [search, setSearch] = useState("");
  const [matches, setMatches] = useState<User[] | null>(null);
  const term = search.trim();

  useEffect(() => {
    if (term === "") return setMatches(null);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .listUsers({ query: { search: term, limit: MATCHES }, signal: controller.signal })
        .then((page) => setMatches(page.users))
        .catch(() => controller.signal.aborted || setMatches([]));
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);

  if (props.owner !== null) {
    return (
      <div class="field">
        <span class="field-label">Owner</span>
        <div class="picked">
          <span class="picked-text">
            {props.owner.name || props.owner.email}{" "}
            <span class="muted small">{props.owner.email}</span>
          </span>
          <button type="button" class="btn btn-small" onClick={() => props.onPick(null)}>
            Change owner
          </button>
        </div>
      </div>
    );
  }
  return (
    <Field
      label="Owner"
      hint="Search the users by email or name, then pick one: they become the first owner."
      problem={props.problem}
    >
      {(control) => (
        <>
          <input
            {...control}
            class={props.problem ? "input input-search input-invalid" : "input input-search"}
            type="search"
            name="owner"
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
          />
          {matches === null ? null : matches.length === 0 ? (
            <p class="muted small" role="status">
              No user matches “{term}”.
            </p>
          ) : (
            <ul class="pick-list" aria-label="Matching users">
              {matches.map((user) => (
                <li key={user.id}>
                  <button
                    type="button"
                    class="btn btn-small pick-option"
                    onClick={() => props.onPick(user)}
                  >
                    <span class="picked-text">{user.name || user.email}</span>
                    <span class="muted small">{user.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Field>
  );
}
