/**
 * @svc/testing — test an svc app's procedures inside workerd
 * (`@cloudflare/vitest-plugin`) on the real shard: typed calls from the
 * generated references, identities given directly, a privileged `ctx.db`
 * for seeding, fresh storage per test.
 *
 * @see ../../../docs/testing.md
 * @packageDocumentation
 */
export {
  type CreateTestOptions,
  createTest,
  type TestHarness,
  type TestRunCtx,
} from "./create-test.ts";
export type { TestApiKey, TestUser } from "./identities.ts";
export type { TestStorage } from "./storage.ts";
