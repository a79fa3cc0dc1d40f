import { Section } from "../../components/section.tsx";
import { Link } from "../../lib/navigation.tsx";
import { callsHref } from "../../lib/routes.ts";

/**
 * Where a user's own calls are: the Logs page filtered to them as the
 * caller, so an operator goes from "who is this" to "what did they do".
 *
 * @example <UserCalls userId={user.id} />
 */
export function UserCalls(props: { userId: string }) {
  const href = callsHref({ user: props.userId });
  return (
    <Section title="Calls">
      <p class="muted small">
        Every call this user made, with its status, duration and console lines:{" "}
        <Link href={href}>see their calls in Logs</Link>.
      </p>
    </Section>
  );
}
