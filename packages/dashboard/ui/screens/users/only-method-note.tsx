/**
 * Shown instead of Unlink / Revoke on a user's only sign-in method: the
 * server refuses to remove a user's last way in (409), so offering the button
 * would only lead to a refusal after a confirmation.
 */
export function OnlyMethodNote() {
  return <span class="muted small only-method">Only sign-in method, so it cannot be removed</span>;
}
