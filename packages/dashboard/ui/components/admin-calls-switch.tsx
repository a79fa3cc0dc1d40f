/**
 * The "Include admin calls" switch of Logs, error groups and metrics. The
 * dashboard's own reads are admin calls: shown by default they would bury
 * the app's traffic, so they stay recorded but appear only when asked for.
 *
 * @example <AdminCallsSwitch checked={include} onChange={setInclude} />
 */
export function AdminCallsSwitch(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label class="choice admin-calls-switch">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <span>Include admin calls</span>
    </label>
  );
}
