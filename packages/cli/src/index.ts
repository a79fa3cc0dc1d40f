/**
 * @svc/cli — the `svc` command as a library: codegen and dev.
 *
 * @packageDocumentation
 */
export { type CodegenOptions, type CodegenResult, codegen } from "./commands/codegen.ts";
export { type DevOptions, dev } from "./commands/dev.ts";
