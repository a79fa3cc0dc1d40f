/**
 * Says plainly that an invitation exists but nobody was told: the app has no
 * `sendInvitationEmail`, so the operator must pass it on themselves.
 */
export function NotEmailedNote(props: { email: string }) {
  return (
    <div class="notice notice-info" role="status">
      <p class="notice-text">
        <strong>No email was sent.</strong> This app has no invitation email configured (
        <code>sendInvitationEmail</code> in the organization plugin), so tell {props.email}{" "}
        yourself. The invitation stays pending until they accept it in the app.
      </p>
    </div>
  );
}
