import { useId } from "preact/hooks";

/**
 * A long job's progress: a native `<progress>` named by `label` (screen
 * readers announce it as "Exporting users, progress bar, 12%"), and the
 * figures in words ("12,000 of 100,000 users · 2.1 MB") in a polite live
 * region, so they are read out without taking the focus. Without `max` the
 * bar is indeterminate (the total is not known).
 *
 * @example
 * ```tsx
 * <ProgressMeter label="Checking rows" value={1000} max={2400} text="Checking 1,000 of 2,400 rows" />
 * ```
 */
export function ProgressMeter(props: {
  label: string;
  value: number;
  max?: number | undefined;
  text: string;
}) {
  const id = useId();
  const known = props.max !== undefined && props.max > 0;
  return (
    <div class="progress-meter">
      <span id={id} class="field-label">
        {props.label}
      </span>
      <progress
        class="progress"
        aria-labelledby={id}
        value={known ? Math.min(props.value, props.max!) : undefined}
        max={known ? props.max : undefined}
      />
      <p class="progress-text" role="status" aria-live="polite">
        {props.text}
      </p>
    </div>
  );
}
