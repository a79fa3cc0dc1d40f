import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

/** A titled block of the user drawer or a page, with optional actions on its right. */
export function Section(props: {
  title: string;
  count?: number;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <section class="section" aria-labelledby={id}>
      <header class="section-header">
        <h3 id={id} class="section-title">
          {props.title}
          {props.count !== undefined ? <span class="count">{props.count}</span> : null}
        </h3>
        {props.actions ? <div class="section-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}
