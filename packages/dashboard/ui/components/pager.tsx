/**
 * Previous / next over cursor pages, with the position in words. Cursors are
 * opaque, so "previous" is the cursor stack the list keeps, not arithmetic.
 */
export function Pager(props: {
  label: string;
  previousLabel?: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-label">{props.label}</span>
      <div class="pager-buttons">
        <button
          type="button"
          class="btn btn-small"
          disabled={!props.hasPrevious || props.busy}
          onClick={props.onPrevious}
        >
          {props.previousLabel ?? "← Previous"}
        </button>
        <button
          type="button"
          class="btn btn-small"
          disabled={!props.hasNext || props.busy}
          onClick={props.onNext}
        >
          Next →
        </button>
      </div>
    </nav>
  );
}
