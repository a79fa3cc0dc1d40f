/**
 * The version of `@svc/server`, recorded in every backup header so a restore
 * can say which svc wrote it. Kept equal to package.json by a test
 * (`test/data/backups.test.ts`).
 *
 * @example `svc ${SVC_VERSION}` // "svc 0.1.0"
 */
export const SVC_VERSION = "0.1.0";
