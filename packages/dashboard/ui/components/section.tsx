import type { ComponentChildren, Ref } from "preact";
import { useId } from "preact/hooks";

/**
 * A titled block of the user drawer or a page, with optional actions on its
 * right. `headingRef` makes the heading focusable from script, so focus can
 * land there after an item of the section is removed.
 */
export function Section(props: {
  title: string;
  count?: number;
  actions?: ComponentChildren;
  headingRef?: Ref<HTMLHeadingElement>;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <section class="section" aria-labelledby={id}>
      <header class="section-header">
        <h3
          id={id}
          class="section-title"
          ref={props.headingRef}
          tabIndex={props.headingRef ? -1 : undefined}
        >
          {props.title}
          {props.count !== undefined ? <span class="count">{props.count}</span> : null}
        </h3>
        {props.actions ? <div class="section-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}
