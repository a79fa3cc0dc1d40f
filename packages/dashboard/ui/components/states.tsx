import type { ComponentChildren } from "preact";
import { ApiError, isRetryable } from "../api/client.ts";
import type { Loaded } from "../lib/use-load.ts";

/** A calm "working on it" line, announced to screen readers. */
export function Loading(props: { label?: string }) {
  return (
    <div class="state state-loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{props.label ?? "Loading…"}</span>
    </div>
  );
}

/** What a list shows when it has nothing: a title and a hint of what to do. */
export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="state state-empty">
      <p class="state-title">{props.title}</p>
      {props.children ? <div class="state-hint">{props.children}</div> : null}
    </div>
  );
}

/** An error as the server explained it (the problem `detail`), with a retry when one makes sense. */
export function ErrorNotice(props: { error: Error; onRetry?: () => void; compact?: boolean }) {
  const issues = props.error instanceof ApiError ? props.error.issues : [];
  return (
    <div
      class={props.compact ? "notice notice-error notice-compact" : "notice notice-error"}
      role="alert"
    >
      <p class="notice-text">{props.error.message}</p>
      {issues.length > 0 ? (
        <ul class="notice-issues">
          {issues.map((issue) => (
            <li key={issue.path}>
              <code>{issue.path}</code> {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {props.onRetry ? (
        <button type="button" class="btn btn-small" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/**
 * The three states of a load in one place: a spinner until the first answer,
 * the error (with retry when retrying can help), else the content. A failed
 * reload shows the error instead of the old content, so stale rows never
 * pass for current ones.
 */
export function LoadView<T>(props: {
  loaded: Loaded<T>;
  label?: string;
  children: (data: T) => ComponentChildren;
}) {
  const { data, error, reload } = props.loaded;
  if (error) return <ErrorNotice error={error} onRetry={isRetryable(error) ? reload : undefined} />;
  if (data === undefined) return <Loading label={props.label} />;
  return <>{props.children(data)}</>;
}
