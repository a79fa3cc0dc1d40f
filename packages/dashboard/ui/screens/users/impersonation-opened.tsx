import type { ImpersonationLink, User } from "../../api/types.ts";
import { Dialog } from "../../components/dialog.tsx";
import { absoluteTime } from "../../lib/format.ts";

/**
 * What follows "Open the app as this user": the new tab is signing in as
 * the user; if a pop-up blocker stopped it, the same one-time link is here
 * to open by hand (it works once, for two minutes). The link holds no
 * session until it is used, and the tab that uses it shows a confirmation
 * first, so showing it here gives away nothing the operator did not ask for.
 */
export function ImpersonationOpened(props: {
  user: User;
  link: ImpersonationLink;
  duration: string;
  onClose: () => void;
}) {
  const { user, link } = props;
  return (
    <Dialog title={`Opening the app as ${user.email}`} onClose={props.onClose}>
      <div class="stack">
        <p>
          A new tab asks you to confirm, then signs this browser in to the app as {user.email}
          {props.duration === "" ? "" : ` for ${props.duration}`}. That replaces any session this
          browser had on the app; sign out there, or revoke the session in the user's sessions, to
          end it early.
        </p>
        <p>
          No new tab? Open this link yourself: it works once, until{" "}
          <strong>{absoluteTime(link.expiresAt)}</strong>.
        </p>
        <p>
          <a href={link.url} target="_blank" rel="noopener noreferrer">
            Open the app as {user.email}
          </a>
        </p>
        <div class="actions">
          <button type="button" class="btn btn-primary" onClick={props.onClose} autofocus>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
