import { useState } from "preact/hooks";

/**
 * Copies a value to the clipboard and says so. When the Clipboard API is
 * unavailable (an insecure origin), it selects the text in `fallbackTarget`
 * so Ctrl/Cmd+C finishes the job.
 */
export function CopyButton(props: {
  value: string;
  label?: string;
  fallbackTarget?: string;
  autofocus?: boolean;
}) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setState("copied");
    } catch {
      const target = props.fallbackTarget ? document.getElementById(props.fallbackTarget) : null;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
        target.focus();
        target.select();
      }
      setState("manual");
    }
  };
  const text = { idle: props.label ?? "Copy", copied: "Copied", manual: "Press Ctrl+C" }[state];
  return (
    <button type="button" class="btn" onClick={copy} aria-live="polite" autofocus={props.autofocus}>
      {text}
    </button>
  );
}
