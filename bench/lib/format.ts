/** `0.93×` */
export const ratio = (value: number): string => `${value.toFixed(2)}×`;
/** `1,234` */
export const count = (value: number): string => Math.round(value).toLocaleString("en-US");
/** `12.3 KiB` */
export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
/** `met` / `not met` against a goal. */
export const verdict = (met: boolean): string => (met ? "met" : "**not met**");

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}
